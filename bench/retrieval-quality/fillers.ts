// What fills the rest of the history: small talk, general help and facts
// about other people (seed 003's "third-party information"), drawn from
// templates with slots. They share vocabulary with the episodes on purpose
// (orders, delivery, phones, email, meetings, food, travel), so that a
// question is answered by finding the right turn among look-alikes.
export interface FillerTemplate {
  readonly user: string;
  readonly assistant: string;
}

export const englishSlots: Readonly<Record<string, readonly string[]>> = {
  city: ['Lisbon', 'Chicago', 'Osaka', 'Nairobi', 'Dublin', 'Toronto', 'Melbourne', 'Prague', 'Lima', 'Oslo'],
  weather: ['sunny', 'rainy', 'cloudy', 'windy', 'humid'],
  genre: ['thriller', 'comedy', 'documentary', 'science fiction', 'animated', 'crime'],
  film: ['Arrival', 'Paddington 2', 'Free Solo', 'Knives Out', 'Spirited Away', 'Heat'],
  tool: ['Excel', 'Git', 'Figma', 'Google Docs', 'VS Code', 'Slack', 'Outlook'],
  task: ['freeze the top row', 'undo the last commit', 'export a frame as PNG', 'track changes', 'split the editor', 'mute a channel'],
  ingredient: ['chickpeas', 'spinach', 'salmon', 'mushrooms', 'tofu', 'lentils', 'sweet potato', 'eggs'],
  topic: ['electric cars', 'remote work', 'the housing market', 'sleep science', 'ocean plastic', 'AI regulation'],
  animal: ['octopuses', 'crows', 'elephants', 'honeybees', 'sea otters'],
  person: ['the landlord', 'my colleague Ahmed', 'the school', 'the plumber', 'our team'],
  name: ['Ahmed', 'Julia', 'Kenji', 'Fatima', 'Marco', 'Olivia'],
  channel: ['email', 'phone calls', 'Slack messages', 'WhatsApp', 'video calls'],
  carrier: ['DHL', 'UPS', 'Royal Mail', 'FedEx'],
  concept: ['compound interest', 'a Gantt chart', 'inflation', 'a VPN', 'latency'],
  hobby: ['climbing', 'board games', 'photography', 'gardening', 'baking'],
  language: ['French', 'German', 'Italian', 'Portuguese'],
  phrase: ['where is the station', 'the bill, please', 'nice to meet you', 'I am running late'],
  number: ['12', '18', '21', '25', '30'],
};

export const englishFillers: readonly FillerTemplate[] = [
  { user: "What's the weather like in {city} this weekend?", assistant: 'It looks mostly {weather} in {city}, around {number} degrees.' },
  { user: 'Can you recommend a {genre} film for tonight?', assistant: "How about {film}? It's a well reviewed {genre} film." },
  { user: 'How do I {task} in {tool}?', assistant: 'In {tool}, you can {task} from the main menu; the option is under View or Settings.' },
  {
    user: 'Give me a quick dinner recipe with {ingredient}.',
    assistant: 'Try a {ingredient} stir-fry with garlic, soy sauce and rice; it takes about 20 minutes.',
  },
  {
    user: 'Summarise this article about {topic} for me.',
    assistant: 'The article argues that {topic} will change a lot over the next decade, with costs falling.',
  },
  {
    user: 'Tell me a fun fact about {animal}.',
    assistant: '{animal} are remarkably clever; researchers keep finding new tool use among them.',
  },
  {
    user: 'Draft a polite email to {person} about the delay.',
    assistant: 'Here is a draft: "Hello, I wanted to let you know about a short delay. Thanks for your patience."',
  },
  {
    user: 'How long does {carrier} delivery usually take within Europe?',
    assistant: '{carrier} parcels usually arrive in three to five working days within Europe.',
  },
  {
    user: 'What is a good gift for a colleague who likes {hobby}?',
    assistant: 'For someone into {hobby}, a book or a small accessory for it makes a thoughtful present.',
  },
  {
    user: 'Remind me what {concept} means.',
    assistant: '{concept} is a common term; in short, it describes how one quantity builds on another over time.',
  },
  {
    user: 'My colleague {name} prefers {channel}; can you note that in the team wiki?',
    assistant: "I've added to the team wiki that {name} prefers {channel}.",
  },
  {
    user: '{name} from accounting asked when the invoices are due.',
    assistant: 'Invoices are normally due at the end of the month; I can tell {name} that.',
  },
  {
    user: 'How do you say "{phrase}" in {language}?',
    assistant: 'In {language}, "{phrase}" has a short everyday form; I can spell it out for you.',
  },
  { user: 'Thanks, that was helpful!', assistant: "You're welcome, happy to help." },
  { user: 'Can you set a timer for {number} minutes?', assistant: 'Timer set for {number} minutes.' },
  { user: 'What time is it in {city} right now?', assistant: 'It is early evening in {city} at the moment.' },
  { user: 'Write a short birthday message for {name}.', assistant: 'Happy birthday, {name}! Wishing you a wonderful year ahead.' },
  {
    user: 'What are the opening hours of a typical pharmacy in {city}?',
    assistant: 'Most pharmacies in {city} open around 9 and close around 7 on weekdays.',
  },
  {
    user: 'Is it worth upgrading my phone this year?',
    assistant: 'If your phone still gets updates and the battery holds up, waiting another year is reasonable.',
  },
  {
    user: 'Explain the offside rule in football quickly.',
    assistant: 'A player is offside if they are nearer the goal line than the ball and the second-last defender when the ball is played.',
  },
  {
    user: 'Our team meeting moved to {number}:00, can you tell {name}?',
    assistant: "I'll let {name} know the team meeting is now at {number}:00.",
  },
  {
    user: 'What should I pack for a weekend in {city}?',
    assistant: 'For {city}, pack layers, comfortable shoes and something for {weather} weather.',
  },
  {
    user: "{name}'s order from the office shop arrived damaged, who handles that?",
    assistant: 'Damaged office-shop orders go to facilities; {name} can file a claim there.',
  },
  { user: 'Can you check the grammar of "me and him goes to the shop"?', assistant: 'It should be "he and I go to the shop".' },
];

export const chineseSlots: Readonly<Record<string, readonly string[]>> = {
  city: ['广州', '重庆', '西安', '厦门', '青岛', '长沙', '昆明', '天津'],
  weather: ['晴天', '小雨', '多云', '大风', '阴天'],
  genre: ['悬疑', '喜剧', '纪录', '科幻', '动画'],
  film: ['流浪地球', '我不是药神', '哪吒', '让子弹飞', '千与千寻'],
  tool: ['Excel', '微信', '钉钉', 'WPS', '飞书'],
  task: ['冻结首行', '撤回消息', '导出PDF', '设置提醒', '建一个群'],
  ingredient: ['土豆', '豆腐', '鸡胸肉', '西红柿', '茄子', '排骨'],
  topic: ['新能源汽车', '远程办公', '房价走势', '睡眠健康', '人工智能'],
  name: ['小李', '老陈', '张伟', '刘洋', '赵敏'],
  channel: ['邮件', '打电话', '微信语音', '短信', '视频会议'],
  carrier: ['中通', '圆通', '京东物流', '韵达'],
  number: ['十', '十五', '二十', '三十'],
};

export const chineseFillers: readonly FillerTemplate[] = [
  { user: '{city}这周末天气怎么样？', assistant: '{city}周末以{weather}为主，出门记得看看预报。' },
  { user: '推荐一部{genre}电影吧。', assistant: '可以看看《{film}》，口碑很不错。' },
  { user: '怎么在{tool}里{task}？', assistant: '在{tool}里打开菜单，找到相关设置就可以{task}。' },
  { user: '用{ingredient}做什么菜比较好？', assistant: '{ingredient}可以红烧或者清炒，二十分钟左右就能做好。' },
  { user: '帮我总结一下这篇关于{topic}的文章。', assistant: '文章认为{topic}在未来几年会有很大变化，成本会继续下降。' },
  { user: '帮我写一段给同事{name}的消息，说项目要延期。', assistant: '可以这样写：“{name}你好，项目需要延期几天，感谢理解。”' },
  { user: '{carrier}快递一般几天能到？', assistant: '{carrier}省内一般一到两天，跨省三到五天。' },
  { user: '同事{name}喜欢用{channel}联系，帮我记在团队文档里。', assistant: '已在团队文档里记下：{name}更喜欢{channel}。' },
  { user: '谢谢，很有帮助！', assistant: '不客气，有需要随时找我。' },
  { user: '帮我定一个{number}分钟的计时器。', assistant: '好的，{number}分钟计时已开始。' },
  { user: '{name}问报销发票什么时候交？', assistant: '一般月底前提交，我可以转告{name}。' },
  { user: '去{city}玩两天要带什么？', assistant: '去{city}建议带几件薄外套和舒服的鞋，注意{weather}。' },
  { user: '给{name}写一句生日祝福。', assistant: '{name}，生日快乐，新的一岁万事顺意！' },
  { user: '今年值得换手机吗？', assistant: '如果现在的手机还能正常更新、电池也够用，可以再等一年。' },
  { user: '周会改到下午{number}点了，帮我告诉{name}。', assistant: '好的，我会告诉{name}周会改时间了。' },
  { user: '{name}的快递被压坏了，找谁处理？', assistant: '可以让{name}联系{carrier}客服申请理赔。' },
  { user: '解释一下什么是复利。', assistant: '复利就是利息也会继续产生利息，时间越长效果越明显。' },
  { user: '这句话有没有语病：“通过这次活动，使我们受益匪浅。”', assistant: '有语病，去掉“通过”或“使”就通顺了。' },
];

export const englishAcks: readonly string[] = [
  'Noted!',
  "Got it, I'll keep that in mind.",
  'Understood, thanks for letting me know.',
  "Thanks, I've saved that.",
  'Okay, noted for next time.',
];

export const chineseAcks: readonly string[] = ['好的，记下了。', '明白，我会记住的。', '收到，谢谢告知。', '好的，下次会注意。'];
