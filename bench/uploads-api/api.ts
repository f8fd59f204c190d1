/**
 * The API of the upload benchmark: documents with a scan of up to 2 GiB, stored by the server's file store and
 * downloaded from its own path; API keys, as a deployed API takes credentials.
 */
import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'uploadbench',
  versions: { v1: {} },
  auth: { apiKey: { header: 'X-API-Key' } },
  collections: {
    documents: collection({
      fields: {
        id: f.id(),
        title: f.string().min(1).max(200),
        scan: f.file({ maxBytes: 2 * 1024 ** 3, types: ['application/pdf'] }),
      },
    }),
  },
});
