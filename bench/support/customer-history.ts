// A realistic long history of one customer account and the project the
// agent runs for it, generated deterministically from a seed: order
// statuses, refunds, tickets, invoices, delivery promises, contact rules,
// scoped preferences, access grants, project decisions (some disputed),
// meetings, open tasks and small talk — in English and Chinese, with ids,
// amounts, dates, times and negations in the words, and the sentences a
// support agent also writes that hold no fact ("She sounded relieved.").
// Contents are the information; values are the short typed labels.
import { random } from '../retrieval-quality/random.js';

export interface HistoryEntry {
  readonly kind: 'episodic' | 'semantic' | 'profile' | 'procedural' | 'constraint' | 'permission';
  readonly key: string;
  readonly value: Record<string, unknown>;
  readonly polarity?: 'negated';
  readonly content: string;
  readonly scopes?: Record<string, string>;
  readonly source: { readonly type: string; readonly refs: readonly string[] };
  readonly validFrom: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const PEOPLE = [
  ['Li Wei', '李伟'],
  ['Anna Schmidt', '安娜'],
  ['Wang Fang', '王芳'],
  ['Tom Baker', '汤姆'],
  ['Chen Jing', '陈静'],
] as const;
const CARRIERS = ['DHL', 'UPS', 'SF Express', 'DPD'];
const ITEMS = ['espresso machine', 'standing desk', 'monitor arm', 'office chair', 'coffee grinder', 'desk lamp'];
const ITEMS_ZH = ['咖啡机', '升降桌', '显示器支架', '办公椅', '磨豆机', '台灯'];
const FILLER = [
  'She sounded relieved.',
  'The customer was polite throughout the call.',
  'I apologised for the delay.',
  'He asked us to keep him posted.',
  'The conversation was friendly.',
  'She thanked the team for the quick answer.',
];
const FILLER_ZH = ['客户语气很客气。', '客户表示感谢。', '我为延误道歉。', '客户希望我们随时告知进展。'];
const CHAT = [
  'The customer mentioned her garden again.',
  'We talked about the weather in Hamburg for a while.',
  'He asked how the team is doing and wished us a good weekend.',
  'She said the new office is much quieter.',
  'Small talk about the football match last night.',
];
const CHAT_ZH = ['客户又聊起了她的花园。', '客户聊了一会儿天气。', '客户说新办公室安静多了。'];
const CONTACT_RULES = [
  ['contact.phone_calls', 'Never phone her; e-mail or SMS only.', '不要给她打电话，只用邮件或短信。'],
  ['contact.early_calls', 'Do not call before 9am.', '早上9点前别打电话。'],
  ['contact.late_sms', 'No SMS after 21:00.', '晚上9点以后不要发短信。'],
  ['contact.marketing', 'No marketing e-mails, ever.', '禁止发送营销邮件。'],
  ['contact.weekend', 'Never contact him on weekends.', '周末不要联系他。'],
] as const;
const DECISIONS = [
  ['database', 'postgres', 'keep the ledger on Postgres', '账本继续使用Postgres'],
  ['deploy_day', 'tuesday', 'deploy on Tuesdays only, never on Fridays', '只在周二部署，周五绝不部署'],
  ['payment', 'bank_transfer', 'invoices are paid by bank transfer, not by card', '发票只接受银行转账，不接受刷卡'],
  ['courier', 'dhl', 'ship large parcels with DHL', '大件包裹用DHL发货'],
  ['returns', '30_days', 'accept returns within 30 days of delivery', '收货后30天内接受退货'],
] as const;

export function customerHistory(size: number, seed = 15): HistoryEntry[] {
  const next = random(seed);
  const int = (from: number, to: number) => from + Math.floor(next() * (to - from + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const code = (letters: string, length: number) => Array.from({ length }, () => letters[int(0, letters.length - 1)]).join('');
  const orders = Array.from({ length: Math.max(40, Math.ceil(size / 8)) }, () => `ORD-${code('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 8)}`);
  const invoices = Array.from({ length: Math.max(10, Math.ceil(size / 40)) }, (_, i) => `INV-2026-${String(40 + i).padStart(4, '0')}`);
  const projects = ['PRJ-7', 'PRJ-12', 'PRJ-31'];
  const employees = PEOPLE.map(() => `EMP-${int(1000, 9999)}`);
  const euros = () => `${int(12, 1800)}.${pick(['00', '50', '90', '99', '49'])}`;

  const out: HistoryEntry[] = [];
  for (let n = 0; n < size; n++) {
    const day = new Date(Date.UTC(2026, 5, 1) + Math.floor((n / size) * 110) * 86_400_000);
    const d = day.getUTCDate();
    const m = day.getUTCMonth();
    const iso = day.toISOString().slice(0, 10);
    const en = pick([iso, `${d} ${MONTHS[m]} 2026`, `${MONTHS[m]} ${d}`]);
    const zh = pick([`2026年${m + 1}月${d}日`, `${m + 1}月${d}日`]);
    const chinese = next() < 0.35;
    const filler = () => (next() < 0.6 ? ` ${chinese ? pick(FILLER_ZH) : pick(FILLER)}` : '');
    const person = int(0, PEOPLE.length - 1);
    const [nameEn, nameZh] = PEOPLE[person]!;
    const emp = employees[person]!;
    const at = (type: string, ref: string) => ({
      source: { type, refs: [ref] },
      validFrom: `${iso}T${String(8 + (n % 10)).padStart(2, '0')}:00:00.000Z`,
    });
    const roll = next();
    if (roll < 0.2) {
      const ord = pick(orders);
      const i = orders.indexOf(ord) % ITEMS.length;
      const status = pick(['shipped', 'delivered', 'delayed', 'returned'] as const);
      const zhStatus = { shipped: '已发货', delivered: '已送达', delayed: '延误了', returned: '已退回' }[status];
      out.push({
        kind: 'episodic',
        key: `order.${ord}.status`,
        value: { type: 'text', text: status },
        content: chinese
          ? `订单${ord}（${ITEMS_ZH[i]}）${zhStatus}，日期${zh}，承运商${pick(CARRIERS)}。${filler()}`.trim()
          : `Order ${ord} (${ITEMS[i]}) ${status} on ${en} with ${pick(CARRIERS)}.${filler()}`,
        ...at('verified_tool_fact', `tool://oms/${ord}`),
      });
    } else if (roll < 0.32) {
      const ord = pick(orders);
      const amount = euros();
      const state = pick(['approved', 'requested', 'declined'] as const);
      out.push({
        kind: 'episodic',
        key: `refund.${ord}`,
        value: { type: 'number', amount, unit: 'EUR' },
        content: chinese
          ? `订单${ord}的退款${amount}欧元${{ approved: '已批准', requested: '已申请', declined: '被拒绝' }[state]}（${zh}）；客户不要代金券。${filler()}`.trim()
          : `Refund of €${amount} for ${ord} ${state} on ${en}; the customer does not want store credit.${filler()}`,
        ...at('human_review', `crm://refunds/${ord}`),
      });
    } else if (roll < 0.42) {
      const ticket = `TCK-${int(10000, 99999)}`;
      const ord = pick(orders);
      out.push({
        kind: 'episodic',
        key: `ticket.${ticket}`,
        value: { type: 'text', text: pick(['open', 'waiting_for_customer', 'escalated']) },
        content: chinese
          ? `工单${ticket}：订单${ord}的包裹破损，已收到照片。检查完成前不安排换货。${filler()}`.trim()
          : `Ticket ${ticket}: the parcel of ${ord} arrived damaged and the customer sent photos. No replacement before the inspection, which takes up to ${int(2, 5)} business days.${filler()}`,
        ...at('user_assertion', `msg://support/${ticket}`),
      });
    } else if (roll < 0.5) {
      const inv = pick(invoices);
      const amount = `${int(1, 9)},${int(100, 999)}.00`;
      out.push({
        kind: 'semantic',
        key: `invoice.${inv}`,
        value: { type: 'entity', id: inv },
        content: chinese
          ? `发票${inv}金额${amount.replace(',', '')}元，${zh}到期；只接受银行转账，不接受刷卡。`
          : `Invoice ${inv} over €${amount} is due on ${en}; payment by bank transfer only, not by card.`,
        ...at('verified_tool_fact', `tool://billing/${inv}`),
      });
    } else if (roll < 0.56) {
      const ord = pick(orders);
      const hours = pick([24, 48, 72]);
      out.push({
        kind: 'procedural',
        key: `delivery.${ord}.pickup_wait`,
        value: { type: 'number', amount: String(hours), unit: 'h' },
        content: chinese
          ? `订单${ord}的包裹在取件点最多保留${hours}小时，之后退回。`
          : `The pickup point keeps the parcel of ${ord} for at most ${hours} hours before it goes back.${filler()}`,
        ...at('verified_tool_fact', `tool://carrier/${ord}`),
      });
    } else if (roll < 0.62) {
      const [key, ruleEn, ruleZh] = pick(CONTACT_RULES);
      out.push({
        kind: 'constraint',
        key,
        value: { type: 'boolean', value: true },
        polarity: 'negated',
        content: chinese ? ruleZh : ruleEn,
        ...at('user_assertion', `msg://thread-${int(1, 400)}`),
      });
    } else if (roll < 0.66) {
      const project = pick(['shop-a', 'shop-b']);
      const channel = project === 'shop-a' ? 'sms' : 'email';
      out.push({
        kind: 'profile',
        key: 'notification.preference',
        scopes: { project },
        value: { type: 'text', text: channel },
        content: chinese
          ? `${project}的物流通知用${channel === 'sms' ? '短信' : '邮件'}，不要打电话。`
          : `For ${project} she prefers ${channel === 'sms' ? 'SMS' : 'e-mail'} for logistics updates; never phone calls.`,
        ...at('user_assertion', `msg://thread-${int(1, 400)}`),
      });
    } else if (roll < 0.7) {
      const grant = pick(['read-only', 'read-write'] as const);
      out.push({
        kind: 'permission',
        key: `access.${emp}.billing`,
        value: { type: 'text', text: grant },
        content: chinese
          ? `${nameZh}（${emp}）对账单看板有${grant === 'read-only' ? '只读' : '读写'}权限，没有invoices:delete。`
          : `${nameEn} (${emp}) has ${grant} access to the billing board; invoices:delete is not granted.`,
        ...at('human_review', `review://access-${n}`),
      });
    } else if (roll < 0.78) {
      const prj = pick(projects);
      const [topic, value, en1, zh1] = pick(DECISIONS);
      const disputed = next() < 0.08;
      out.push({
        kind: 'semantic',
        key: `project.${prj}.decision.${topic}`,
        value: { type: 'text', text: disputed ? `${value}_revisited` : value },
        content: chinese
          ? `${zh}例会决定：${zh1}；适用规则R${String(int(1, 40)).padStart(3, '0')}。${disputed ? '（模型推测有变）' : ''}`
          : `Decided in the ${prj} sync on ${en}: ${en1}; rule R${String(int(1, 40)).padStart(3, '0')} applies.${disputed ? ' (inferred from a later thread)' : ''}${filler()}`,
        ...at(disputed ? 'model_inference' : 'user_assertion', `msg://${prj}/sync-${n}`),
      });
    } else if (roll < 0.84) {
      const prj = pick(projects);
      const inv = pick(invoices);
      out.push({
        kind: 'procedural',
        key: `task.${prj}.t${n}`,
        value: { type: 'text', text: 'open' },
        content: chinese
          ? `${nameZh}（${emp}）负责在${zh}前核对发票${inv}，不要先付款。`
          : `${nameEn} (${emp}) to reconcile invoice ${inv} by ${en}; do not pay it before that.`,
        ...at('user_assertion', `msg://${prj}/task-${n}`),
      });
    } else if (roll < 0.9) {
      const prj = pick(projects);
      out.push({
        kind: 'episodic',
        key: `project.${prj}.meeting.m${n}`,
        value: { type: 'date', date: iso },
        content: chinese
          ? `${zh}上午10点半开会，${int(3, 9)}人参加；预算保持${int(5, 20)},000欧元，周末不加班。`
          : `Weekly ${prj} sync at 10:30 with ${int(3, 9)} attendees; the budget stays at €${int(5, 20)},000 and there is no overtime on weekends.${filler()}`,
        ...at('user_assertion', `msg://${prj}/meeting-${n}`),
      });
    } else {
      out.push({
        kind: 'episodic',
        key: `chat.turn.t${n}`,
        value: { type: 'text', text: 'small talk' },
        content: chinese ? pick(CHAT_ZH) : pick(CHAT),
        ...at('user_assertion', `msg://chat/${n}`),
      });
    }
  }
  return out;
}
