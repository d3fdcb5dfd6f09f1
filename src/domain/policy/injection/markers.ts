// Prompt-injection and poisoning markers, English and Chinese, over the
// normalised text (lower case, obfuscation undone; see normalise.ts). Each
// is a phrase that tries to change what the agent obeys or may do. Words of
// ordinary memories stay out: "ignore the previous email", "you are now
// subscribed", "我现在是学生", "keep the system prompt short".
import type { InjectionKind } from '../detection.js';

export interface Marker {
  readonly kind: InjectionKind;
  readonly re: RegExp;
}

const m = (kind: InjectionKind, source: string): Marker => ({ kind, re: new RegExp(source, 'gu') });

const QUALIFIER = '(?:all|any|the|your|my|of|these|those|previous|prior|above|earlier|preceding|system|safety|original|existing|current)';
const RULES =
  '(?:instructions?|rules?|guidelines?|directions?|prompts?|directives?|policies|policy|guardrails?|constraints?|programming|restrictions?)';
const ZH_QUALIFIER = '(?:之前|以上|上面|前面|先前|此前|所有|全部|一切|原有|原来|系统|你的|的)';
const ROLE =
  '(?:ai|assistant|bot|chatbot|model|agent|system|admin|administrator|root|superuser|developer|dan|jailbroken|unrestricted|uncensored|unfiltered|evil)';
const HAN = '\\p{Script=Han}';

export const MARKERS: readonly Marker[] = [
  m('injection:override_instructions', `\\b(?:ignore|disregard|override)\\s+(?:${QUALIFIER}\\s+){0,4}${RULES}\\b`),
  // "forget" only with a word that points at the agent's own rules ("don't forget the rules of the game" is no attack).
  m(
    'injection:override_instructions',
    `\\bforget\\s+(?=(?:${QUALIFIER}\\s+){0,3}(?:all|your|previous|prior|above|earlier|preceding)\\s)(?:${QUALIFIER}\\s+){1,4}${RULES}\\b`,
  ),
  m('injection:override_instructions', '\\bnew\\s+(?:system\\s+)?instructions?\\s*:'),
  m(
    'injection:override_instructions',
    `\\b(?:do\\s+not|don'?t|never|stop)\\s+(?:follow(?:ing)?|obey(?:ing)?)\\s+(?:${QUALIFIER}\\s+){0,3}${RULES}\\b`,
  ),
  m(
    'injection:override_instructions',
    `(?:忽略|无视|忽视|不要理会|别管|忘记|忘掉|抛开)(?:掉)?${ZH_QUALIFIER}*(?:指令|指示|规则|设定|约束|规定)`,
  ),
  m('injection:override_instructions', `(?:忽略|无视|忽视|不要理会|别管|忘记|忘掉|抛开)(?:掉)?${ZH_QUALIFIER}+(?:提示|要求|限制|命令)`),
  m('injection:override_instructions', '(?:不要|不再|别再?)(?:遵守|遵循|服从)(?:任何|你的|这些|所有)?(?:的)?(?:规则|指令|规定|限制)'),
  m('injection:override_instructions', '新(?:的)?(?:系统)?指令\\s*[:：]'),
  m('injection:role_reassignment', `\\byou\\s+are\\s+now\\s+(?:(?:a|an|the|my|no\\s+longer)\\s+)?(?:[\\p{L}-]+\\s+){0,2}?${ROLE}\\b`),
  m('injection:role_reassignment', '\\bfrom\\s+now\\s+on\\s+you\\s+(?:are|will|must|shall)\\b'),
  m('injection:role_reassignment', '\\bpretend\\s+(?:to\\s+be|you\\s+are)\\b'),
  m('injection:role_reassignment', '\\b(?:developer|god|jailbreak|dan|admin|debug|unrestricted)\\s+mode\\b'),
  m('injection:role_reassignment', '\\bjailbr(?:eak|oken)\\w*'),
  m(
    'injection:role_reassignment',
    `你现在是(?:一个|一名|个)?${HAN}{0,8}?(?:没有限制|不受限制|无限制|没有任何限制|管理员|系统|开发者|人工智能|助手|机器人|黑客|ai|dan)`,
  ),
  m('injection:role_reassignment', '从现在(?:起|开始)你(?:就)?(?:是|要|必须)'),
  m('injection:role_reassignment', '开发者模式|越狱|上帝模式|管理员模式'),
  m(
    'injection:system_prompt',
    '\\b(?:reveal|print|show|repeat|output|display|leak|dump|tell\\s+me|give\\s+me|what\\s+is)\\s+(?:me\\s+)?(?:your|the)\\s+(?:(?:full|entire|hidden|original|initial|secret)\\s+)?(?:system|developer|initial|hidden)\\s+(?:prompt|instructions|message)',
  ),
  m('injection:system_prompt', '\\bsystem\\s+prompt\\s*:'),
  m('injection:system_prompt', '\\b(?:new|updated|override|replace|ignore|disregard|change)\\s+(?:the\\s+|your\\s+)?system\\s+prompt'),
  m('injection:system_prompt', '(?:输出|泄露|显示|告诉我|打印|重复|给我看)(?:一下)?(?:你的)?(?:系统提示|系统指令|系统设定|初始指令)'),
  m('injection:system_prompt', '系统提示词?\\s*[:：]'),
  m('injection:privilege_escalation', '\\bgrant\\s+(?:[\\p{L}-]+\\s+){0,3}?(?:admin(?:istrator)?|root|superuser)\\b'),
  m(
    'injection:privilege_escalation',
    '\\bgrant\\s+(?:[\\p{L}-]+\\s+){0,3}?(?:full|elevated)\\s+(?:access|rights|privileges?|permissions?)',
  ),
  m(
    'injection:privilege_escalation',
    '\\b(?:elevate|escalate|raise|expand|increase)\\s+(?:my\\s+|your\\s+|the\\s+|user\\s+|their\\s+|his\\s+|her\\s+)?(?:privileges?|permissions?|access\\s+level|access\\s+rights)',
  ),
  m(
    'injection:privilege_escalation',
    '\\b(?:make|give)\\s+(?:me|us|the\\s+user|this\\s+user)\\s+(?:an?\\s+)?(?:full\\s+)?(?:admin(?:istrator)?|root|superuser)\\b',
  ),
  m('injection:privilege_escalation', '扩大权限|提升权限|提权|权限提升|升级权限|获取(?:root|管理员|最高)权限'),
  m('injection:privilege_escalation', `授予${HAN}{0,6}?(?:管理员|超级管理员|root|最高)(?:权限)?|(?:设为|设置为|改为|升级为)管理员`),
  m('injection:privilege_escalation', '给(?:我|他|她|该用户|这个用户|该账号)(?:开通)?(?:管理员|超级管理员|root|最高)权限'),
  m(
    'injection:safety_bypass',
    '\\b(?:disable|bypass|circumvent|turn\\s+off|deactivate|evade)\\s+(?:the\\s+|all\\s+|your\\s+|any\\s+)?(?:(?:safety|security|content|moderation)\\b|guardrails?|safeguards?|filters?|approvals?|reviews?|authentication|verification)',
  ),
  m(
    'injection:safety_bypass',
    '(?:绕过|绕开|跳过|禁用|解除|取消)(?:所有|一切|全部)?(?:的)?(?:安全|内容|审核|风控|身份)?(?:审核|审查|过滤|限制|检查|验证|核验|防护|护栏)',
  ),
  m(
    'injection:exfiltration',
    "\\b(?:send|forward|upload|post|leak|exfiltrate|transmit|email|copy)\\s+(?:all\\s+|the\\s+|your\\s+|every\\s+|any\\s+)?(?:of\\s+the\\s+)?(?:user(?:'s|s)?\\s+)?(?:data|memories|memory|conversations?|chat\\s+history|credentials|secrets|api\\s+keys?|passwords?|tokens?|personal\\s+information|database)\\s+(?:[\\p{L}-]+\\s+){0,3}?to\\s+(?:https?:|www\\.|\\S+\\.(?:com|net|org|io|ru|cn|xyz)\\b|(?:this|that|the\\s+following|an?\\s+external|my|our)\\s+(?:address|url|link|server|endpoint|webhook|email))",
  ),
  m(
    'injection:exfiltration',
    `把(?:所有|全部)?(?:的)?(?:用户)?(?:数据|记忆|聊天记录|密钥|密码|个人信息)${HAN}{0,6}?(?:发送|发到|转发|上传|传)(?:到|给)${HAN}{0,4}?(?:外部|第三方|以下|这个|指定)`,
  ),
];

/** Chat-template tokens and role tags, read in the raw text (normalising would break them up). */
export const RAW_MARKERS: readonly Marker[] = [
  { kind: 'injection:system_prompt', re: /<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?INST\]|<<\/?SYS>>|<\s*\/?\s*system\s*>/gi },
];
