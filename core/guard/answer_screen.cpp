#include "core/guard/answer_screen.hpp"

#include <algorithm>
#include <vector>

#include "core/guard/phrase_index.hpp"
#include "core/guard/text_fold.hpp"
#include "core/numbers/answer.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

// Folded (lower case) reasoning openers and answer markers, by language.
// A phrase is removed from the front of the answer while one matches (the
// longest first); an answer that is nothing but phrases, punctuation and
// markup states no result. Words that can be answers themselves ("yes",
// "none", "true") are not here.
const phrase_index& phrases() {
  static const phrase_index all = [] {
    std::vector<std::string_view> p{
      // English
      "thought process",
      "thinking process",
      "my thought process",
      "thoughts",
      "reasoning",
      "explanation",
      "working",
      "steps",
      "let's solve this problem step by step",
      "let's solve this step by step",
      "let's solve this problem",
      "let's solve this",
      "let's solve it",
      "let's think step by step",
      "let's think about this step by step",
      "let's think",
      "let me think",
      "let me think about it",
      "let me think about this",
      "let me think about this step by step",
      "let me solve this step by step",
      "let me solve this",
      "let's work through this",
      "let's work this out",
      "let us solve this problem",
      "let's see",
      "let me see",
      "let's begin",
      "let's start",
      "let's get started",
      "let me check",
      "let's break this down",
      "let's break it down",
      "here we go",
      "let us think step by step",
      "step by step",
      "step 1",
      "first",
      "to solve this problem",
      "to solve this",
      "we have",
      "we get",
      "here is the solution",
      "here's the solution",
      "here is my answer",
      "here's my answer",
      "okay",
      "ok",
      "sure",
      "alright",
      "hmm",
      "well",
      "solution",
      "solutions",
      "answer",
      "answers",
      "final answer",
      "the final answer",
      "the final answer is",
      "my final answer is",
      "the answer",
      "the answer is",
      "answer is",
      "my answer is",
      "the correct answer is",
      "the result is",
      "result",
      "final result",
      "the solution is",
      "so the answer is",
      "so",
      "thus",
      "hence",
      "therefore",
      "therefore the answer is",
      "thus the answer is",
      "in conclusion",
      "conclusion",
      "to conclude",
      "finally",
      "boxed",
      "final",
      // Chinese
      "解",
      "解答",
      "解析",
      "答",
      "答案",
      "答案是",
      "答案为",
      "最终答案",
      "最终答案是",
      "最终答案为",
      "最終答案",
      "思考过程",
      "思路",
      "分析",
      "因此",
      "所以",
      "故",
      "综上所述",
      "综上",
      "让我们一步一步地解决这个问题",
      "让我们一步一步地思考",
      "让我们一步一步来",
      "让我们一步步思考",
      "我们一步一步来",
      "首先",
      "解题过程",
      "解题思路",
      // Japanese
      "解説",
      "かいせつ",
      "かいとう",
      "答え",
      "答えは",
      "最終的な答え",
      "最終的な答えは",
      "考え方",
      "思考過程",
      "段階的に解いていきましょう",
      "ステップバイステップで考えましょう",
      "順を追って考えましょう",
      "よって",
      "したがって",
      "ゆえに",
      "まず",
      // Korean
      "풀이",
      "해설",
      "답",
      "정답",
      "정답은",
      "답은",
      "최종 답",
      "최종 답은",
      "최종 답안",
      "따라서",
      "그러므로",
      "단계별로 풀어 봅시다",
      "단계별로 생각해 봅시다",
      "생각해 봅시다",
      "먼저",
      // Russian
      "решение",
      "ответ",
      "ответ такой",
      "итак",
      "таким образом",
      "следовательно",
      "окончательный ответ",
      "итоговый ответ",
      "давайте решим эту задачу шаг за шагом",
      "давайте решим эту задачу",
      "давайте подумаем шаг за шагом",
      "рассуждение",
      "ход мыслей",
      "ход решения",
      "сначала",
      // French
      "réponse",
      "la réponse est",
      "réponse finale",
      "la réponse finale est",
      "donc",
      "ainsi",
      "raisonnement",
      "explication",
      "résolvons ce problème étape par étape",
      "résolvons ce problème",
      "réfléchissons étape par étape",
      "étape par étape",
      "d'abord",
      // German
      "lösung",
      "antwort",
      "die antwort ist",
      "die antwort lautet",
      "endgültige antwort",
      "endergebnis",
      "ergebnis",
      "also",
      "daher",
      "somit",
      "lösen wir das problem schritt für schritt",
      "schritt für schritt",
      "denkprozess",
      "gedankengang",
      "überlegung",
      "erklärung",
      "zuerst",
      // Spanish
      "solución",
      "respuesta",
      "la respuesta es",
      "respuesta final",
      "la respuesta final es",
      "por lo tanto",
      "entonces",
      "razonamiento",
      "resolvamos este problema paso a paso",
      "resolvamos este problema",
      "pensemos paso a paso",
      "paso a paso",
      "proceso de pensamiento",
      "explicación",
      "primero",
      // Portuguese
      "solução",
      "resposta",
      "a resposta é",
      "resposta final",
      "a resposta final é",
      "portanto",
      "logo",
      "raciocínio",
      "vamos resolver este problema passo a passo",
      "vamos resolver este problema",
      "vamos pensar passo a passo",
      "passo a passo",
      "processo de pensamento",
      "explicação",
      // Italian
      "soluzione",
      "risposta",
      "la risposta è",
      "risposta finale",
      "la risposta finale è",
      "quindi",
      "pertanto",
      "ragionamento",
      "risolviamo questo problema passo dopo passo",
      "risolviamo questo problema",
      "pensiamo passo dopo passo",
      "passo dopo passo",
      "processo di pensiero",
      "spiegazione",
      "innanzitutto",
      // Vietnamese
      "lời giải",
      "giải",
      "bài giải",
      "đáp án",
      "đáp số",
      "câu trả lời",
      "câu trả lời là",
      "đáp án là",
      "vậy",
      "do đó",
      "suy nghĩ",
      "hãy giải bài toán này từng bước",
      "hãy giải bài toán này",
      "hãy suy nghĩ từng bước",
      "từng bước",
      "trước tiên",
    };
    // phrase_index tries the longest first: "the answer is" before "the
    // answer".
    return phrase_index{std::move(p)};
  }();
  return all;
}

// LaTeX wrappers that hold nothing by themselves.
constexpr std::string_view wrapper_commands[] = {
  "\\boxed{}", "\\fbox{}",  "\\text{}", "\\boxed{",
  "\\fbox{",   "\\textbf{", "\\text{",  "\\mathrm{",
  "\\mathbf{", "\\boxed",   "\\fbox",   "\\textbf",
  "\\text",    "\\mathrm",  "\\mathbf", "\\displaystyle",
  "\\left",    "\\right",   "\\qquad",  "\\quad",
  "\\\\",      "\\,",       "\\(",      "\\)",
  "\\[",       "\\]"};

// Punctuation and markup in ASCII (after folding) and the CJK punctuation
// folding leaves. Not brackets: "[]", "{}" and "()" are answers (nothing,
// the empty set); a wrapper's "\boxed{" and its closing "}" are markup.
constexpr std::string_view filler_ascii = " \t\r\n\f\v.,:;!?-*_#>`'\"~|/<=+}";
constexpr std::string_view filler_multibyte[] = {
  "。", "、", "，", "：", "；", "！", "？", "…",  "「", "」",
  "『", "』", "【", "】", "《", "》", "〈", "〉", "・", "—",
  "–",  "‥",  "·",  "«",  "»",  "¿",  "¡",  "→",  "⇒"};

// Skips filler at `i`; returns the new position.
std::size_t skip_filler(std::string_view s, std::size_t i) {
  for (;;) {
    auto before = i;
    while (i < s.size() && filler_ascii.find(s[i]) != std::string_view::npos)
      ++i;
    for (auto f : filler_multibyte)
      if (s.compare(i, f.size(), f) == 0)
        i += f.size();
    if (s.compare(i, 1, "$") == 0)
      ++i;
    for (auto w : wrapper_commands)
      if (s.compare(i, w.size(), w) == 0
          && !(text::is_alpha(w.back()) && i + w.size() < s.size()
               && text::is_alpha(s[i + w.size()])))
        i += w.size();
    if (i == before)
      return i;
  }
}

} // namespace

std::optional<std::string> screen_answer(std::string_view answer) {
  return screen_answer(answer, fold_text(answer));
}

std::optional<std::string> screen_answer(std::string_view answer,
                                         std::string_view s) {
  if (is_absent(answer))
    return std::nullopt; // absent: rule I1, not screening
  // Long texts state something, or are reasoning a judge may read: only
  // short answers are screened.
  constexpr std::size_t longest = 400;
  if (answer.size() > longest)
    return std::nullopt;
  std::string_view first_phrase;
  std::size_t i = skip_filler(s, 0);
  while (i < s.size()) {
    std::string_view hit;
    phrases().at(s, i, [&](std::size_t k) {
      auto& p = phrases().phrase(k);
      if (ends_in_word_char(p) && word_char_at(s, i + p.size()))
        return false;
      hit = p;
      return true;
    });
    if (hit.empty())
      return std::nullopt; // something else: maybe a result
    if (first_phrase.empty())
      first_phrase = hit;
    i = skip_filler(s, i + hit.size());
  }
  if (first_phrase.empty())
    return std::string{"punctuation or markup only"};
  return "only a reasoning opener or answer marker (\""
         + std::string{first_phrase} + "\") with nothing after it";
}

} // namespace ij
