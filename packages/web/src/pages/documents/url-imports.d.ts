// Vite's `?url` imports (the file is emitted under /assets and the import is its URL), declared here
// rather than by referencing vite/client, which is a build tool's package and not the app's.
declare module '*?url' {
  const url: string;
  export default url;
}
