// `new Crier({ baseUrl, apiKey })`: the API's resources as typed methods (resources.ts) over one
// HTTP client (http.ts) that authenticates, retries as Crier asks and throws CrierError.
import { CrierHttp, type CrierOptions } from './http.ts';
import { accountsApi, bulkImportsApi, eventsApi, evergreenApi, mediaApi, postsApi, queuesApi, recurrencesApi, settingsApi, usageApi, webhooksApi } from './resources.ts';

export class Crier extends CrierHttp {
  readonly posts = postsApi(this);
  readonly accounts = accountsApi(this);
  readonly media = mediaApi(this);
  readonly webhooks = webhooksApi(this);
  readonly usage = usageApi(this);
  readonly events = eventsApi(this);
  readonly queues = queuesApi(this);
  readonly recurrences = recurrencesApi(this);
  readonly evergreen = evergreenApi(this);
  readonly bulkImports = bulkImportsApi(this);
  readonly settings = settingsApi(this);

  constructor(options: CrierOptions) {
    super(options);
  }
}
