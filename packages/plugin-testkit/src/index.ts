export { startTestKernel, createTemporaryDatabase, testSecrets, type TestKernel, type TestKernelOptions } from './test-kernel.js';
