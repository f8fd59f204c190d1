/**
 * @module The seeded set of calls the differential tests run against the shop example, per version: every tool of the
 * version at least once, successes and refusals (404, 409), each call's arguments written once and sent both as a
 * tool call and through the generated client. Arguments may name what an earlier call of the same run answered (an
 * id, a cursor, an ETag), so each run refers to its own resources.
 */

/** What an earlier call of the same run answered, by its label. */
export interface Earlier {
  /** A field of the data it answered (`id`, `next_cursor`). */
  value(label: string, field: string): unknown;
  /** The ETag it answered. */
  etag(label: string): string;
}

/** One call: the tool, a label to refer to its answer later, and its arguments. */
export interface Step {
  readonly tool: string;
  readonly label?: string;
  readonly args: (earlier: Earlier) => Record<string, unknown>;
}

const id = (label: string) => (earlier: Earlier) => ({ id: earlier.value(label, 'id') });

/** The steps for shop version `version` (`v1`, `v2`, `v3`). */
export function shopScript(version: string): Step[] {
  const v1 = version === 'v1';
  const v3 = version === 'v3';
  // v1 calls the quantity `qty`; v3 makes `reference` a pattern (it was an integer before).
  const order = (customer: string, quantity: number) => (e: Earlier) => ({
    body: { customer_id: e.value(customer, 'id'), product_id: 7, [v1 ? 'qty' : 'quantity']: quantity, ...(v3 ? { reference: 'AB-1234' } : { reference: 12 }) },
  });
  const steps: Step[] = [
    { tool: 'customers_create', label: 'ann', args: () => ({ body: { email: `ann.${version}@shop.example`, name: 'Ann', tags: ['vip'] } }) },
    { tool: 'customers_create', label: 'bob', args: () => ({ body: { email: `bob.${version}@shop.example`, name: 'Bob', tier: 'pro' } }) },
    // The same email again: 409.
    { tool: 'customers_create', args: () => ({ body: { email: `ann.${version}@shop.example`, name: 'Ann again' } }) },
    { tool: 'customers_list', label: 'page', args: () => ({ limit: 1 }) },
    { tool: 'customers_list', args: (e) => ({ cursor: e.value('page', 'next_cursor') }) },
    { tool: 'customers_list', args: () => ({ tier: 'pro' }) },
    { tool: 'customers_get', args: id('ann') },
    { tool: 'customers_replace', args: (e) => ({ id: e.value('bob', 'id'), body: { email: `robert.${version}@shop.example`, name: 'Robert', tier: 'free' } }) },
    { tool: 'customers_update', args: (e) => ({ id: e.value('ann', 'id'), body: { name: 'Anna' } }) },
    { tool: 'orders_create', label: 'o1', args: order('ann', 2) },
    { tool: 'orders_create', label: 'o2', args: order('ann', 5) },
    { tool: 'orders_create', label: 'o3', args: order('bob', 1) },
    { tool: 'orders_list', args: () => ({ status: { eq: 'open' } }) },
    { tool: 'orders_list', args: () => ({ status: { in: 'open,paid' } }) },
    { tool: 'orders_list', args: (e) => ({ customer_id: e.value('bob', 'id'), limit: 5 }) },
    { tool: 'orders_get', args: id('o1') },
    { tool: 'orders_update', args: (e) => ({ id: e.value('o1', 'id'), body: { [v1 ? 'qty' : 'quantity']: 3 } }) },
    { tool: 'orders_pay', args: id('o1') },
    // Paid already: 409 invalid_transition.
    { tool: 'orders_pay', args: id('o1') },
    { tool: 'orders_ship', args: (e) => ({ id: e.value('o1', 'id'), body: { carrier: 'DHL', ...(v3 ? { trackingCode: 'JJD0001' } : {}) } }) },
    { tool: 'orders_cancel', args: (e) => ({ id: e.value('o2', 'id'), body: { reason: 'changed my mind' } }) },
    ...(v3 ? [{ tool: 'orders_refund', args: id('o1') }] : []),
    { tool: 'orders_delete', args: id('o3') },
    { tool: 'orders_get', args: id('o3') },
    { tool: 'customers_delete', args: id('bob') },
    { tool: 'customers_get', args: id('bob') },
    { tool: 'webhook_endpoints_create', label: 'hook', args: () => ({ body: { url: 'http://127.0.0.1:9/hooks', events: ['order.created'] } }) },
    { tool: 'webhook_endpoints_list', args: () => ({}) },
    { tool: 'webhook_endpoints_get', args: id('hook') },
    { tool: 'webhook_endpoints_update', args: (e) => ({ id: e.value('hook', 'id'), body: { description: 'Orders to the warehouse' } }) },
    { tool: 'webhook_endpoints_disable', args: (e) => ({ id: e.value('hook', 'id'), body: { reason: 'maintenance' } }) },
    { tool: 'webhook_endpoints_enable', args: id('hook') },
    { tool: 'webhook_endpoints_rotateSecret', args: (e) => ({ id: e.value('hook', 'id'), body: { graceSeconds: 60 } }) },
    { tool: 'webhook_endpoints_delete', args: id('hook') },
  ];
  if (v3)
    steps.push(
      { tool: 'coupons_create', label: 'coupon', args: () => ({ body: { code: 'SAVE10', percentOff: 10, validUntil: null } }) },
      { tool: 'coupons_get', label: 'read', args: id('coupon') },
      { tool: 'coupons_update', label: 'updated', args: (e) => ({ id: e.value('coupon', 'id'), ifMatch: e.etag('read'), body: { percentOff: 15 } }) },
      // The ETag read before the update is stale now: 412.
      { tool: 'coupons_update', args: (e) => ({ id: e.value('coupon', 'id'), ifMatch: e.etag('read'), body: { percentOff: 20 } }) },
      {
        tool: 'coupons_replace',
        label: 'replaced',
        args: (e) => ({ id: e.value('coupon', 'id'), ifMatch: e.etag('updated'), body: { code: 'SAVE20', percentOff: 20, validUntil: '2027-01-31' } }),
      },
      { tool: 'coupons_list', args: () => ({ limit: 10 }) },
      { tool: 'coupons_delete', args: (e) => ({ id: e.value('coupon', 'id'), ifMatch: e.etag('replaced') }) },
    );
  return steps;
}
