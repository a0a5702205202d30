// Guesses what kind of task a prompt is, to predict how many model rounds and output tokens a
// turn will take. Four classes, cheapest first:
//   question      an answer or a pointer, nothing changed
//   routine       one focused edit or debugging session
//   refactor      the same change carried across several files or modules
//   architecture  a new subsystem, a redesign, a structural choice with trade-offs
//
// Only what is in the prompt is used: verbs, scope words ("all", "across", 所有, 整个), the
// number of files and @-mentions named, code blocks, the question form. English and Chinese
// (simplified, and the traditional forms of the same words). Length is reported but does not
// decide: long prompts are as often pasted logs as plans.
//
// The rules name kinds of words, not phrases. The labelled set in test/cost/classifier-set.ts
// was written before them; two sets written afterwards showed the first rules were too narrow
// (about 58%), and the word groups were widened by kind (bug reports, request verbs, component
// nouns, quantified scope); a last set, never tuned against, scored 22/25. A wrong guess costs
// little: it moves the estimate's range, and the user can pick another tier.

export type TaskClass = "question" | "routine" | "refactor" | "architecture";

export const TASK_CLASSES: readonly TaskClass[] = ["question", "routine", "refactor", "architecture"];

/** Whole English words (prefix match where a stem is given, e.g. `refactor` covers refactoring). */
function words(list: string): RegExp {
  return new RegExp(`\\b(?:${list})`, "gi");
}
/** Chinese words, matched as substrings (no word boundaries in CJK text). */
function zhWords(list: string): RegExp {
  return new RegExp(`(?:${list})`, "g");
}

// Structural words: the prompt asks for a design, a plan or a new shape of the system.
const ARCH_EN = words(
  "design|architect|rearchitect|redesign|re-design|subsystem|structure\\b|structuring|trade-?offs?|from scratch|" +
    "propose|introduce|plan\\b|planning|roadmap|long-term|abstraction|orchestrat|coordinat|how should we|best way to|" +
    "approach\\b|sketch|lay (?:it |this |that |them )?out|layout|organi[sz]e|components\\b|boundar|public api|embed|decide\\b|decision",
);
const ARCH_ZH = zhWords(
  "设计|設計|架构|架構|子系统|子系統|分层|分層|从零|從零|方案|利弊|权衡|權衡|选型|選型|引入|规划|規劃|演进|演進|抽象层|協調|协调|" +
    "应该怎么|應該怎麼|构思|構思|思路|做法|组件|組件|组织|組織|边界|邊界|嵌入",
);
// Component nouns: weak alone ("fix the server crash" is routine), structural when the prompt
// builds one or places it between others.
const PARTS_EN = words(
  "layer\\b|layers\\b|proxy|daemon|server|service\\b|services\\b|queue|worker|gateway|backend|storage|store\\b|database|" +
    "protocol|pipeline|framework\\b|plugin system|offline|fallback|distributed|multi-|between (?:the |a )?\\w+ and|client/server",
);
const PARTS_ZH = zhWords(
  "层|層|代理|守护进程|守護進程|服务端|服務端|客户端|客戶端|队列|隊列|存储|存儲|数据库|資料庫|协议|協議|流水线|框架|插件系统|离线|離線|回退|分布式|多智能体|多智能體|之间|之間",
);

// Scope words: the same change in many places.
const REFACTOR_EN = words(
  "refactor|restructur|reorgani[sz]|extract|split|consolidat|deduplicat|dedupe|migrat|upgrade|across|throughout|everywhere|" +
    "standardi[sz]|unify|in (?:some|other|many|several) places|" +
    "(?:the|whole|entire) (?:codebase|code base|project|repo)\\b|codebase-wide|" +
    "(?:all|every|each) (?:the |of the |our )?\\w+|" +
    "out of [\\w /.-]+ into|into (?:its|their) own|into (?:a |one )?(?:new |separate |single |shared |common )?(?:module|package|helper|library)\\b",
);
const REFACTOR_ZH = zhWords(
  "重构|重構|拆分|拆成|抽取|抽成|抽到|抽出|提取|迁移|遷移|升级|升級|统一|統一|合并|合併|所有|整个|整個|全部|每个|每個|各个|各個|各自|" +
    "代码库|程式碼庫|全局|批量|全项目|全項目|全仓库|全倉庫|有的地方",
);

// Edit verbs and requests to act: one change.
const CHANGE_EN = words(
  "fix|add|update|rename|change|bump|remove|delete|implement|write|handle|make|set\\b|create|support|replace|move|" +
    "debug|patch|correct|improve|convert|tweak|adjust|increase|decrease|raise|lower|enable|disable|wire|hook up|clean ?up|" +
    "stop|prevent|avoid|ensure|sort (?:it |this |that )?out|solve|resolve|investigate|look into|get rid|build|port\\b|pull|point",
);
const CHANGE_ZH = zhWords(
  "修|改|加|添加|增加|新增|更新|删除|刪除|去掉|实现|實現|写个|写一|寫個|寫一|处理|處理|支持|替换|替換|移动|移動|调试|調試|排查|" +
    "查一下|看看|看一下|优化|優化|补一|補一|调整|調整|启用|禁用|换成|換成|解决|解決|让|讓|做一|做个|做個|避免|防止|确保|確保",
);
// A bug report or a pasted failure: work to do even without a verb.
const TROUBLE = /\b(?:error|exception|traceback|fails?|failing|failed|broken|crash(?:es|ed)?|panic|doesn'?t work|not working|wrong)\b|报错|報錯|失败|失敗|崩溃|崩潰|异常|異常|不工作|出错|出錯|错误|錯誤|[A-Z]\w*Error\b/i;

// An interrogative opening asks for an answer even when a verb follows ("why does X build Y");
// "can you…", "could you…" are polite requests and only count as a question form.
const WH_START_EN =
  /^\s*(?:what|why|how|where|which|who|when|is|are|does|do|did|explain|describe|show me|tell me|walk me through|remind me|give me (?:an overview|a summary|a rundown)|list|find|summari[sz]e|compare)\b/i;
// Asking how something should be built is a design request, not a lookup.
const DESIGN_ASK = /\bhow (?:should|would|could) (?:we|you|i)\b|\bwhat(?:'s| is) the best way\b|应该怎么|應該怎麼|你会怎么|你會怎麼|怎么设计|怎麼設計|如何设计|如何設計/i;
const REQUEST_START_EN = /^\s*(?:can|could|would|will|should)\b/i;
// Asking for an answer from something, wherever it stands in the prompt: a lookup.
const ANSWER_ASK_EN = /\b(?:give me (?:an overview|a summary|a rundown)|according to|quote (?:the|it|them)|what does (?:it|the \w+) say)\b/i;
const QUESTION_ZH = zhWords("什么|什麼|为什么|為什麼|为何|為何|怎么|怎麼|怎样|怎樣|如何|哪|吗|嗎|呢|是否|多少|多大|解释|解釋|说明|說明|介绍|介紹|总结|總結|讲讲|講講|讲一下|講一下|告诉我|告訴我|是不是|能不能|有没有|有沒有|区别|區別");

const FILE_MENTION = /(?:@[\w./-]+|\b[\w-]+(?:\/[\w.-]+)*\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|cpp|cc|c|h|hpp|swift|md|json|ya?ml|toml|sql|sh|css|html|vue|svelte)\b)/g;

const CODE_BLOCK = /```[\s\S]*?```/g;

function count(re: RegExp, text: string): number {
  return text.match(re)?.length ?? 0;
}

/** The signals the decision uses, exposed so the estimate can say why it chose a class. */
export interface TaskSignals {
  /** Structural words (design, architecture, 设计, 架构…). */
  architecture: number;
  /** Component nouns (layer, proxy, daemon, 代理, 存储…). */
  parts: number;
  /** Scope words (refactor, across, all the…, 所有, 整个…). */
  refactor: number;
  /** Edit verbs and requests to act (fix, add, 修, 加…). */
  change: number;
  /** A bug report or pasted failure. */
  trouble: boolean;
  /** Opens with an interrogative word (what, why, how…; not "can you"). */
  interrogative: boolean;
  /** Asks how something should be built ("how should we…", 应该怎么…). */
  designAsk: boolean;
  /** Any question form: interrogative, "can you…", a closing question mark, 吗/什么/怎么…. */
  question: boolean;
  /** Distinct files and @-mentions named outside code blocks. */
  files: number;
  codeBlocks: number;
  length: number;
}

/** Prompts longer than this are mostly pasted material (a document, a log): the instruction
 *  is at their start or end, and only those parts are read for the task's shape. */
const PASTED_OVER = 1500;
const INSTRUCTION_CHARS = 400;

/** The part of a long prompt that asks: its last paragraph when that is a question or a
 *  request (material first, then the ask), else its beginning (the ask, then the material). */
function instructionPart(prose: string): string {
  if (prose.length <= PASTED_OVER) return prose;
  const end = prose.slice(-INSTRUCTION_CHARS);
  const lastParagraph = end.slice(end.lastIndexOf("\n\n") + 1).trim() || end;
  const asks = /[?？]\s*$/.test(lastParagraph) || WH_START_EN.test(lastParagraph) || ANSWER_ASK_EN.test(lastParagraph) || count(CHANGE_EN, lastParagraph) > 0 || count(QUESTION_ZH, lastParagraph) > 0;
  return asks ? lastParagraph : prose.slice(0, INSTRUCTION_CHARS);
}

export function taskSignals(prompt: string): TaskSignals {
  const codeBlocks = count(CODE_BLOCK, prompt);
  // Words inside pasted code or logs say nothing about the task's shape, and file names in
  // them do not widen its scope; that a failure was pasted does count as trouble.
  const prose = instructionPart(prompt.replace(CODE_BLOCK, " "));
  const files = new Set((prose.match(FILE_MENTION) ?? []).map((f) => f.replace(/^@/, "").toLowerCase()));
  // File names are not words: src/store.js names a file, not a store to build.
  const wordsOnly = prose.replace(FILE_MENTION, " ");
  const trimmed = prose.trim();
  const interrogative = WH_START_EN.test(trimmed) || ANSWER_ASK_EN.test(trimmed);
  const question =
    interrogative || REQUEST_START_EN.test(trimmed) || /[?？]\s*$/.test(trimmed) || count(QUESTION_ZH, trimmed) > 0;
  return {
    architecture: count(ARCH_EN, wordsOnly) + count(ARCH_ZH, wordsOnly),
    parts: count(PARTS_EN, wordsOnly) + count(PARTS_ZH, wordsOnly),
    refactor: count(REFACTOR_EN, wordsOnly) + count(REFACTOR_ZH, wordsOnly),
    change: count(CHANGE_EN, wordsOnly) + count(CHANGE_ZH, wordsOnly),
    trouble: TROUBLE.test(prompt),
    interrogative,
    designAsk: DESIGN_ASK.test(wordsOnly),
    question,
    files: files.size,
    codeBlocks,
    length: prompt.length,
  };
}

/**
 * The class of a task, decided in order of how much the signals commit to: structure over
 * scope, scope (or three or more files) over a single edit, and a question only where nothing
 * asks for a change.
 */
export function classifyTask(prompt: string): TaskClass {
  const s = taskSignals(prompt);
  const scope = s.refactor + (s.files >= 3 ? 2 : 0) + (s.files >= 6 ? 1 : 0);
  // Component nouns count half: two of them, or one beside a structural word, make a design
  // task. A bug report about a component is still a fix.
  const arch = s.trouble ? s.architecture : s.architecture + s.parts / 2 + (s.designAsk ? 1 : 0);
  // Asking about the design ("explain how the chain decides…", 给我讲讲…的结构) is a lookup.
  // A question form inside the prompt (如何, a closing "?") is weaker than an opening
  // what/why/how: beside a structural word it is part of a design brief.
  const lookup = (s.interrogative || (s.question && s.architecture === 0)) && !s.designAsk && !s.trouble;
  if (lookup && s.change === 0 && scope === 0) return "question";
  if (arch >= 1 && arch >= scope) return "architecture";
  if (scope > 0) return "refactor";
  if (s.question && !s.trouble && (s.change === 0 || s.interrogative)) return "question";
  if (s.change > 0 || s.trouble || s.codeBlocks > 0) return "routine";
  if (s.question) return "question";
  // No verb we know and no question form: a statement ("the status line overlaps the input",
  // "X should refuse Y") describes a bug or a wanted behaviour, which is work.
  return "routine";
}
