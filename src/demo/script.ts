// The demo's customer-service history, drawn from the seeds: a notification
// preference that changes from email to SMS, "never phone me", an order id, a
// 72-hour refund threshold, a delivery city two sources disagree on, a tool
// fact that is later retracted, and a phone number that is erased.
export const DEMO_SUBJECT = 'customer-7';

const at = (day: string) => `2026-${day}T09:00:00Z`;

export const FIRST_ENTRIES = {
  emailPreference: {
    kind: 'profile',
    key: 'notification.preference',
    value: { type: 'text', text: 'email' },
    content: 'Prefers e-mail for order updates.',
    source: { type: 'user_assertion', refs: ['msg://thread-3/turn-2'] },
    sensitivity: 'personal',
    validFrom: at('07-01'),
  },
  neverPhone: {
    kind: 'constraint',
    key: 'contact.phone_calls',
    value: { type: 'boolean', value: true },
    polarity: 'negated',
    content: 'Never phone me.',
    source: { type: 'user_assertion', refs: ['msg://thread-3/turn-5'] },
    validFrom: at('07-01'),
  },
  order: {
    kind: 'episodic',
    key: 'order.open',
    value: { type: 'entity', id: 'ORD-A1B2C3D4' },
    content: 'Order ORD-A1B2C3D4 placed; refund requested.',
    source: { type: 'verified_tool_fact', refs: ['tool://orders/ORD-A1B2C3D4'] },
    validFrom: at('07-02'),
  },
  refundThreshold: {
    kind: 'procedural',
    key: 'refund.approval_threshold',
    value: { type: 'number', amount: 72, unit: 'h' },
    content: 'Refunds wait at most 72 hours for approval.',
    source: { type: 'human_review', refs: ['review://policy-12'] },
    validFrom: at('07-01'),
  },
  cityFromUser: {
    kind: 'profile',
    key: 'delivery.city',
    value: { type: 'text', text: 'Berlin' },
    source: { type: 'user_assertion', refs: ['msg://thread-4/turn-1'] },
    validFrom: at('07-03'),
  },
  cityFromCrm: {
    kind: 'profile',
    key: 'delivery.city',
    value: { type: 'text', text: 'Hamburg' },
    source: { type: 'verified_tool_fact', refs: ['tool://crm/address'] },
    validFrom: at('07-03'),
  },
  shippedFact: {
    kind: 'episodic',
    key: 'order.shipment',
    value: { type: 'text', text: 'shipped' },
    content: 'The courier API says ORD-A1B2C3D4 shipped.',
    source: { type: 'verified_tool_fact', refs: ['tool://courier/ORD-A1B2C3D4'] },
    validFrom: at('07-04'),
  },
  phone: {
    kind: 'profile',
    key: 'contact.phone',
    value: { type: 'text', text: '+49 30 5550 1234' },
    content: 'Phone number for delivery questions: +49 30 5550 1234.',
    source: { type: 'user_assertion', refs: ['msg://thread-4/turn-3'] },
    sensitivity: 'personal',
    validFrom: at('07-04'),
  },
} as const;

export const SMS_PREFERENCE = {
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text: 'sms' },
  content: 'Prefers SMS for logistics updates; never phone calls.',
  source: { type: 'user_assertion', refs: ['msg://thread-9/turn-14'] },
  sensitivity: 'personal',
  validFrom: at('07-10'),
} as const;
