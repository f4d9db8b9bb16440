/**
 * Tokens for lexical tool search. Identifiers are split the way people say them (`get_file_info`,
 * `getFileInfo`, `HTTPServer`, `base64Encode` → get file info, http server, base 64 encode), English
 * words lose common suffixes so "files"/"listing" meet "file"/"list", and CJK text (which has no
 * spaces) becomes overlapping character bigrams. A small bilingual glossary maps common Chinese
 * request words to the English words tool descriptions use, so a Chinese request finds an
 * English-described tool offline and without a model. Everything here is deterministic.
 */

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const ASCII_RUNS = /[A-Za-z0-9]+/g;
const RUNS = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+|[\p{L}\p{N}]+/gu;

const STOP = new Set(('a an and are as at be by can do does for from get give has have i in into is it its me my of on or our please '
  + 'should show some that the their them then there these this those to use using want we what which with would you your').split(' '));
// Characters that glue Chinese requests together but carry no meaning for choosing a tool.
const CJK_STOP = new Set('的了吗呢吧啊我你他她它们请帮把给在和与及或是个一这那些用要想能可以下上中'.split(''));

/** Strips common English suffixes; a tiny Porter-like step, enough to join word forms in tool text. */
export function stem(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) return undouble(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 4) return undouble(w.slice(0, -2));
  if (w.endsWith('es') && /(?:ch|sh|x|ss|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}
const undouble = (w: string) => /([^aeiouls])\1$/.test(w) ? w.slice(0, -1) : w.endsWith('at') || w.endsWith('iz') ? `${w}e` : w;

/** Splits identifiers at `_`, `-`, `.`, `/`, case changes and letter/digit boundaries. */
function splitIdentifier(word: string): string[] {
  return word
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .split(' ');
}

const CJK_STOP_SPLIT = new RegExp(`[${[...CJK_STOP].join('')}]`, 'u');

function cjkTokens(run: string, out: string[]): void {
  // Stop characters split a run: 帮我列出文件 → 列出文件 → 列出 出文 文件.
  for (const part of run.split(CJK_STOP_SPLIT)) {
    const chars = [...part];
    if (chars.length === 1) out.push(chars[0]);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  }
}

// Tool text repeats the same words over thousands of tools: tokens of a run are worked out once.
// Bounded so text from servers cannot grow it without limit.
const runCache = new Map<string, readonly string[]>();
const RUN_CACHE_SIZE = 50_000;

function runTokens(run: string): readonly string[] {
  let tokens = runCache.get(run);
  if (tokens) return tokens;
  const out: string[] = [];
  if (CJK.test(run[0])) cjkTokens(run, out);
  else for (const piece of splitIdentifier(run)) {
    const w = piece.toLowerCase();
    if (w && !STOP.has(w)) out.push(stem(w));
  }
  if (runCache.size >= RUN_CACHE_SIZE) runCache.clear();
  runCache.set(run, tokens = out);
  return tokens;
}

/** Search tokens of `text` (lower-case, stemmed, stop words removed, CJK as bigrams). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  // Most tool text is ASCII, where a simpler pattern is several times faster.
  const runs = /^[\x00-\x7f]*$/.test(text) ? text.match(ASCII_RUNS) : text.match(RUNS);
  if (runs) for (const run of runs) for (const t of runTokens(run)) out.push(t);
  return out;
}

/** Request-side tokens: {@link tokenize} plus English equivalents of glossary words found in CJK text. */
export function queryTokens(text: string): string[] {
  const out = tokenize(text);
  for (const [zh, en] of GLOSSARY) if (text.includes(zh)) for (const w of en.split(' ')) out.push(stem(w));
  return out;
}

// Common request words of Chinese users → the English words of tool names and descriptions.
const GLOSSARY: readonly (readonly [string, string])[] = Object.entries({
  列出: 'list', 列表: 'list', 查看: 'view get', 显示: 'show list', 获取: 'get fetch', 查询: 'query search get', 搜索: 'search', 查找: 'find search',
  创建: 'create', 新建: 'create new', 添加: 'add create', 删除: 'delete remove', 移除: 'remove delete', 更新: 'update', 修改: 'update edit modify',
  编辑: 'edit', 读取: 'read', 写入: 'write', 保存: 'save write', 上传: 'upload', 下载: 'download', 发送: 'send', 回复: 'reply', 移动: 'move',
  复制: 'copy', 重命名: 'rename', 合并: 'merge', 关闭: 'close', 打开: 'open', 运行: 'run execute', 执行: 'execute run', 启动: 'start', 停止: 'stop',
  重启: 'restart', 部署: 'deploy', 取消: 'cancel', 分配: 'assign', 评论: 'comment', 翻译: 'translate', 总结: 'summarize', 计算: 'calculate',
  转换: 'convert', 比较: 'compare diff', 截图: 'screenshot', 点击: 'click', 导航: 'navigate', 订阅: 'subscribe subscription', 安排: 'schedule',
  文件: 'file', 目录: 'directory', 文件夹: 'folder directory', 仓库: 'repository repo', 问题: 'issue', 议题: 'issue', 拉取请求: 'pull request',
  分支: 'branch', 提交: 'commit', 标签: 'tag label', 消息: 'message', 频道: 'channel', 邮件: 'email mail', 日历: 'calendar', 事件: 'event',
  会议: 'meeting', 任务: 'task', 项目: 'project', 用户: 'user', 团队: 'team', 数据库: 'database', 表: 'table', 记录: 'record', 文档: 'document',
  页面: 'page', 网页: 'web page', 图片: 'image', 图像: 'image', 视频: 'video', 音频: 'audio', 天气: 'weather', 地图: 'map', 路线: 'route',
  地址: 'address', 订单: 'order', 客户: 'customer', 发票: 'invoice', 付款: 'payment', 支付: 'payment', 价格: 'price', 股票: 'stock',
  日志: 'log', 指标: 'metric', 告警: 'alert', 警报: 'alert', 容器: 'container', 集群: 'cluster', 节点: 'node', 服务: 'service',
  密钥: 'secret key', 变量: 'variable', 函数: 'function', 存储桶: 'bucket', 对象: 'object', 队列: 'queue', 工作流: 'workflow',
  流水线: 'pipeline', 构建: 'build', 测试: 'test', 版本: 'version release', 发布: 'release publish', 笔记: 'note', 评论区: 'comment',
  联系人: 'contact', 电话: 'phone call', 短信: 'sms', 通知: 'notification', 浏览器: 'browser', 元素: 'element', 表单: 'form',
  资源: 'resource', 提示: 'prompt', 总和: 'sum', 求和: 'sum add', 相加: 'add sum', 回显: 'echo', 环境: 'environment', 信息: 'info',
  大小: 'size', 权限: 'permission', 归档: 'archive', 恢复: 'restore', 导出: 'export', 导入: 'import', 仪表板: 'dashboard', 播放列表: 'playlist',
  歌曲: 'track song', 频道列表: 'channel list', 成员: 'member', 群组: 'group', 角色: 'role', 模板: 'template', 报告: 'report', 报表: 'report',
  工单: 'ticket', 账户: 'account', 账号: 'account', 产品: 'product', 订阅服务: 'subscription', 退款: 'refund', 域名: 'domain', 证书: 'certificate',
  部署记录: 'deployment', 索引: 'index', 快照: 'snapshot', 备份: 'backup', 实例: 'instance', 镜像: 'image', 卷: 'volume', 网络: 'network', 搜索引擎: 'search', 新闻: 'news', 汇率: 'exchange rate', 时间: 'time', 几点: 'time', 现在: 'current now', 时区: 'timezone',
}).sort(([a], [b]) => b.length - a.length || (a < b ? -1 : 1));
