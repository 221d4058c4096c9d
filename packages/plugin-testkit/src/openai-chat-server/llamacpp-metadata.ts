import type { LlamaCppServerModel } from './types.js';

// What llama.cpp's HTTP server (tools/server) answers about the model it loaded, trimmed to the
// fields clients read; the shapes follow its README's GET /props and GET /v1/models.

/**
 * GET /props: `default_generation_settings.n_ctx` is the context one request (one slot) may use,
 * `--ctx-size` divided among `--parallel` slots. While the model loads the server answers 503.
 */
export function propsBody(model: LlamaCppServerModel): { status: number; body: object } {
  if (model.loading)
    return { status: 503, body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } } };
  return {
    status: 200,
    body: {
      default_generation_settings: {
        id: 0,
        id_task: -1,
        n_ctx: model.nCtx,
        speculative: false,
        is_processing: false,
        params: { n_predict: -1, temperature: 0.8, top_k: 40, top_p: 0.95 },
      },
      total_slots: 1,
      model_path: model.path,
      chat_template: '',
      modalities: { vision: false },
      build_info: 'b0000-docqa-test',
      is_sleeping: false,
    },
  };
}

/**
 * GET /v1/models: one entry, its id the model path (or `--alias`), `meta` null while the model loads.
 * `meta.n_ctx_train` is what the model was trained for, not what the server allocated.
 */
export function modelsBody(model: LlamaCppServerModel): object {
  return {
    object: 'list',
    data: [
      {
        id: model.path,
        object: 'model',
        created: 1735142223,
        owned_by: 'llamacpp',
        meta: model.loading
          ? null
          : { vocab_type: 2, n_vocab: 32000, n_ctx_train: model.nCtxTrain, n_embd: 64, n_params: 1000, size: 4096 },
      },
    ],
  };
}
