// The serialized ATN, read in the order antlr4 writes it (see AtnLoader.h):
// version and UUID, grammar type and largest token type, states, non-greedy
// decisions, left-recursive rules, rules, modes, sets, edges, decisions. Links
// that antlr4 derives instead of storing (rule returns, block ends' starts,
// loop-back states, precedence decisions) are made as its deserializer makes
// them, with the state types read from getStateType() instead of dynamic_cast,
// and from lists of the states concerned gathered while reading instead of
// passes over every state (each pass a cache miss per state, at start-up).
#include "AtnLoader.h"

#include <string>
#include <utility>

namespace gdsl {
namespace {

using antlr4::IllegalStateException;
using antlr4::UnsupportedOperationException;
using namespace antlr4::atn;

bool isBlockStart(size_t type) {
  return type == ATNState::BLOCK_START || type == ATNState::PLUS_BLOCK_START ||
         type == ATNState::STAR_BLOCK_START;
}

bool isDecision(size_t type) {
  return isBlockStart(type) || type == ATNState::TOKEN_START || type == ATNState::STAR_LOOP_ENTRY ||
         type == ATNState::PLUS_LOOP_BACK;
}

class Reader {
 public:
  explicit Reader(const std::vector<uint16_t>& serialized) : data_(serialized.size()) {
    // Every value but the version is stored plus 2.
    for (size_t i = 0; i < serialized.size(); ++i)
      data_[i] = static_cast<uint16_t>(i == 0 ? serialized[i] : serialized[i] - 2);
  }

  size_t next() {
    if (position_ >= data_.size()) throw IllegalStateException("the serialized ATN ends early");
    return data_[position_++];
  }
  size_t next32() {
    size_t low = next();
    return low | (next() << 16);
  }
  const uint16_t* here(size_t count) {
    if (position_ + count > data_.size())
      throw IllegalStateException("the serialized ATN ends early");
    const uint16_t* at = data_.data() + position_;
    position_ += count;
    return at;
  }

 private:
  std::vector<uint16_t> data_;
  size_t position_ = 0;
};

// The state numbered `number`, which must exist and be of one of the types `accepts` takes.
template <typename State = ATNState, typename Accepts>
State* stateAt(const ATN& atn, size_t number, Accepts accepts) {
  if (number >= atn.states.size() || atn.states[number] == nullptr ||
      !accepts(atn.states[number]->getStateType()))
    throw IllegalStateException("the serialized ATN names a wrong state " + std::to_string(number));
  return static_cast<State*>(atn.states[number]);
}

auto anyType = [](size_t) { return true; };
auto typeIs = [](size_t wanted) { return [wanted](size_t type) { return type == wanted; }; };

void readSets(Reader& in, std::vector<antlr4::misc::IntervalSet>& sets, bool wide) {
  size_t count = in.next();
  for (size_t i = 0; i < count; ++i) {
    size_t intervals = in.next();
    antlr4::misc::IntervalSet set;
    if (in.next() != 0) set.add(-1);  // contains EOF
    for (size_t j = 0; j < intervals; ++j) {
      size_t a = wide ? in.next32() : in.next();
      size_t b = wide ? in.next32() : in.next();
      set.add(static_cast<ssize_t>(a), static_cast<ssize_t>(b));
    }
    sets.push_back(std::move(set));
  }
}

}  // namespace

ATN loadParserAtn(const std::vector<uint16_t>& serialized) {
  Reader in(serialized);
  if (in.next() != ATNDeserializer::SERIALIZED_VERSION)
    throw UnsupportedOperationException("not an ATN of serialization version 3");
  if (Guid(in.here(8), true) != ATNDeserializer::SERIALIZED_UUID())
    throw UnsupportedOperationException("not an ATN serialized by antlr4 4.7 or later");
  auto grammarType = static_cast<ATNType>(in.next());
  if (grammarType != ATNType::PARSER) throw UnsupportedOperationException("not a parser's ATN");
  size_t maxTokenType = in.next();
  ATN atn(grammarType, maxTokenType);

  // States. A loop end names its loop-back state and a block start its end
  // state, by number: they are linked once every state exists.
  std::vector<std::pair<LoopEndState*, size_t>> loopBacks;
  std::vector<std::pair<BlockStartState*, size_t>> blockEnds;
  // States the links below start from, in state order, so that no pass visits
  // every state: rule stops, loop-back states, loop entries.
  std::vector<RuleStopState*> ruleStops;
  std::vector<ATNState*> loopBackStates;
  std::vector<StarLoopEntryState*> loopEntries;
  size_t stateCount = in.next();
  atn.states.reserve(stateCount);
  for (size_t i = 0; i < stateCount; ++i) {
    size_t type = in.next();
    if (type == ATNState::ATN_INVALID_TYPE) {
      atn.addState(nullptr);
      continue;
    }
    size_t ruleIndex = in.next();
    if (ruleIndex == 0xFFFF) ruleIndex = INVALID_INDEX;
    ATNState* state = ATNDeserializer::stateFactory(type, ruleIndex);
    if (type == ATNState::LOOP_END)
      loopBacks.emplace_back(static_cast<LoopEndState*>(state), in.next());
    else if (isBlockStart(type))
      blockEnds.emplace_back(static_cast<BlockStartState*>(state), in.next());
    else if (type == ATNState::RULE_STOP)
      ruleStops.push_back(static_cast<RuleStopState*>(state));
    else if (type == ATNState::PLUS_LOOP_BACK || type == ATNState::STAR_LOOP_BACK)
      loopBackStates.push_back(state);
    else if (type == ATNState::STAR_LOOP_ENTRY)
      loopEntries.push_back(static_cast<StarLoopEntryState*>(state));
    atn.addState(state);
  }
  for (auto& [loopEnd, number] : loopBacks) loopEnd->loopBackState = stateAt(atn, number, anyType);
  // Each block end knows its one start.
  for (auto& [start, number] : blockEnds) {
    start->endState = stateAt<BlockEndState>(atn, number, typeIs(ATNState::BLOCK_END));
    if (start->endState->startState != nullptr)
      throw IllegalStateException("a block end state of two blocks");
    start->endState->startState = start;
  }

  for (size_t i = 0, n = in.next(); i < n; ++i)
    stateAt<DecisionState>(atn, in.next(), isDecision)->nonGreedy = true;
  for (size_t i = 0, n = in.next(); i < n; ++i)
    stateAt<RuleStartState>(atn, in.next(), typeIs(ATNState::RULE_START))->isLeftRecursiveRule =
        true;

  // Rules: their start states as stored, their stop states found among the states.
  size_t ruleCount = in.next();
  for (size_t i = 0; i < ruleCount; ++i)
    atn.ruleToStartState.push_back(
        stateAt<RuleStartState>(atn, in.next(), typeIs(ATNState::RULE_START)));
  atn.ruleToStopState.resize(ruleCount);
  for (RuleStopState* stop : ruleStops) {
    if (stop->ruleIndex >= ruleCount)
      throw IllegalStateException("a rule stop state of no rule in the serialized ATN");
    atn.ruleToStopState[stop->ruleIndex] = stop;
    atn.ruleToStartState[stop->ruleIndex]->stopState = stop;
  }

  for (size_t i = 0, n = in.next(); i < n; ++i)
    atn.modeToStartState.push_back(
        stateAt<TokensStartState>(atn, in.next(), typeIs(ATNState::TOKEN_START)));

  // Sets of labels: those with 16-bit bounds, then those with 32-bit bounds.
  std::vector<antlr4::misc::IntervalSet> sets;
  readSets(in, sets, false);
  readSets(in, sets, true);

  // Edges: source, target, type and three arguments each.
  std::vector<bool> callsRule(atn.states.size());
  for (size_t i = 0, n = in.next(); i < n; ++i) {
    size_t source = in.next(), target = in.next(), type = in.next();
    size_t arg1 = in.next(), arg2 = in.next(), arg3 = in.next();
    stateAt(atn, target, anyType);
    if (type == Transition::RULE) stateAt(atn, arg1, typeIs(ATNState::RULE_START));
    if ((type == Transition::SET || type == Transition::NOT_SET) && arg1 >= sets.size())
      throw IllegalStateException("the serialized ATN names a wrong set");
    ATNState* from = stateAt(atn, source, anyType);
    if (type == Transition::RULE) callsRule[source] = true;
    from->addTransition(
        ATNDeserializer::edgeFactory(atn, type, source, target, arg1, arg2, arg3, sets));
  }

  // A rule's stop state returns to the state after each call of the rule
  // (in the order of the states that call, and of their transitions).
  for (size_t number = 0; number < atn.states.size(); ++number) {
    if (!callsRule[number]) continue;
    ATNState* state = atn.states[number];
    for (size_t i = 0; i < state->transitions.size(); ++i) {
      if (state->transitions[i]->getSerializationType() != Transition::RULE) continue;
      auto* call = static_cast<RuleTransition*>(state->transitions[i]);
      size_t rule = call->target->ruleIndex;
      size_t outermostPrecedenceReturn =
          atn.ruleToStartState[rule]->isLeftRecursiveRule && call->precedence == 0 ? rule
                                                                                   : INVALID_INDEX;
      atn.ruleToStopState[rule]->addTransition(
          new EpsilonTransition(call->followState, outermostPrecedenceReturn));
    }
  }

  // Each loop entry knows its loop-back state.
  for (ATNState* state : loopBackStates) {
    size_t type = state->getStateType();
    for (Transition* transition : state->transitions) {
      size_t targetType = transition->target->getStateType();
      if (type == ATNState::PLUS_LOOP_BACK && targetType == ATNState::PLUS_BLOCK_START)
        static_cast<PlusBlockStartState*>(transition->target)->loopBackState =
            static_cast<PlusLoopbackState*>(state);
      else if (type == ATNState::STAR_LOOP_BACK && targetType == ATNState::STAR_LOOP_ENTRY)
        static_cast<StarLoopEntryState*>(transition->target)->loopBackState =
            static_cast<StarLoopbackState*>(state);
    }
  }

  size_t decisionCount = in.next();
  for (size_t i = 0; i < decisionCount; ++i) {
    auto* decision = stateAt<DecisionState>(atn, in.next(), isDecision);
    atn.decisionToState.push_back(decision);
    decision->decision = static_cast<int>(i);
  }

  // The loop of a left-recursive rule that decides whether the rule goes on.
  for (StarLoopEntryState* state : loopEntries) {
    if (!atn.ruleToStartState[state->ruleIndex]->isLeftRecursiveRule) continue;
    ATNState* loopEnd = state->transitions.back()->target;
    if (loopEnd->getStateType() == ATNState::LOOP_END && loopEnd->epsilonOnlyTransitions &&
        loopEnd->transitions[0]->target->getStateType() == ATNState::RULE_STOP)
      state->isPrecedenceDecision = true;
  }
  return atn;
}

}  // namespace gdsl
