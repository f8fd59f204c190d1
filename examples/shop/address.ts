/** A postal address, shared by the example's collections (an import the loader follows). */
import { f } from 'restgen';

export const address = f.object({
  street: f.string().min(1).max(200),
  city: f.string().min(1).max(100),
  zip: f.string().pattern(/^\d{4,10}$/),
  country: f.string().pattern(/^[A-Z]{2}$/).description('ISO 3166-1 alpha-2'),
});
