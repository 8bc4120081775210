// tribune_env/engine/takeovers.py: phase 4, faction take-overs, factions in board order (R15).
//
// A take-over set is built one card at a time (PickCard), then played (COMMIT) or withdrawn (DECLINE). Cards are
// added in ascending card-type order so that each set has exactly one building sequence, and a card is only offered
// if the set can still be completed into one that takes the faction. In the expansion the attempting player may stage
// assassin cards after his faction cards (the assassin has the highest card type); each removes the target's highest
// card on commit (R31).
#include <algorithm>
#include <utility>

#include "engine.hpp"

namespace tribune {

namespace {

void brutii_stands(State& st, int faction);
void after_decline(State& st, int faction, int role);
void drop_controller(State& st, int faction);
void win(State& st, int faction, int seat, std::vector<int> cards);

// takeover: queue the attempts on one faction; the player on "2" acts first (R15).
void takeover(State& st, int faction) {
    st.phase = TAKEOVERS;
    brutii_stands(st, faction);
    const auto& ids = st.t().faction_spaces[faction];
    int first = st.spaces[ids[0]], second = st.spaces[ids[1]];
    if (second >= 0)
        push(st, {task(S_attempt, faction, second, SECOND_FIRST), task(S_end_takeover, faction)});
    else if (first >= 0)
        push(st, {task(S_attempt, faction, first, ALONE), task(S_end_takeover, faction)});
}

// _brutii_stands: R48, with "Faction Take-Over" the Brutii attempts as if he stood on a space of the field: option 1
// on "1" of a field with no follower, option 2 on "2" behind another player's lone follower on "1". Never a faction
// he controls or the chariot blocks; the space is vacated with the others at the end of the take-over.
void brutii_stands(State& st, int faction) {
    int choice = option(st, BC_FACTION_TAKEOVER);
    int seat = st.brutii;
    if (choice < 0 || st.controller[faction] == seat || st.chariot == faction) return;
    int first_id = st.t().faction_spaces[faction][0], second_id = st.t().faction_spaces[faction][1];
    int first = st.spaces[first_id], second = st.spaces[second_id];
    if (choice == 0 && first < 0 && second < 0)
        st.spaces[first_id] = seat;
    else if (choice == 1 && first >= 0 && first != seat && second < 0)
        st.spaces[second_id] = seat;
    else
        return;
    LOG(st, seat, seat_name(seat), " (the Brutii) attempts the ", faction_name(st, faction), " (R48)");
}

// end_takeover
void end_takeover(State& st, int faction) {
    for (int space : st.t().faction_spaces[faction]) st.spaces[space] = -1;
}

// _target: the set a new set must beat (R15 amended): "2"'s committed set when "1" answers it, else the
// controller's. nullptr (None): the faction is uncontrolled, any set of the smallest size takes it.
std::vector<int>* target_of(State& st, int faction, int role) {
    if (role == FIRST_OVER_SECOND) return &st.contest;
    return st.controller[faction] >= 0 ? &st.sets[faction] : nullptr;
}

// _assassin_room: how many assassins may hit ``target`` (R31, E40): never one of its protected lowest cards.
int assassin_room(const State& st, const std::vector<int>* target) {
    if (target == nullptr || !st.comps().has_expansion || st.t().assassin_card < 0) return 0;
    return std::max(0, static_cast<int>(target->size()) - st.comps().expansion.assassins.protected_);
}

// _weakened: ``target`` after ``assassins`` removals of its current highest card (R31).
std::vector<int> weakened(const State& st, const std::vector<int>& target, int assassins) {
    std::vector<int> left = target;
    for (int i = 0; i < assassins; i++) remove_highest(st, left);
    return left;
}

// _split: a staged set's faction cards, and the number of its assassins.
std::pair<std::vector<int>, int> split(const State& st, const std::vector<int>& cards) {
    int assassin = st.t().assassin_card;
    std::vector<int> faction_cards;
    int n = 0;
    for (int c : cards) {
        if (c != assassin)
            faction_cards.push_back(c);
        else
            n++;
    }
    return {std::move(faction_cards), assassin >= 0 ? n : 0};
}

// _can_take: ``cards`` (faction cards) take the faction once ``assassins`` hit ``target`` (R15, R31).
bool can_take(const State& st, const std::vector<int>& cards, const std::vector<int>* target, int assassins = 0) {
    if (static_cast<int>(cards.size()) < st.comps().min_set_size) return false;
    return target == nullptr || beats(st, cards, weakened(st, *target, assassins));
}

// _completion: the largest completion of ``staged``: its faction cards plus every card of ``faction`` in the hand of
// type >= ``start``, and its assassins plus those in the hand (R31).
std::pair<std::vector<int>, int> completion(const State& st, int seat, int faction, const std::vector<int>& staged,
                                            int start) {
    const auto& hand = st.players[seat].hand;
    auto [full, assassins] = split(st, staged);
    for (int card : st.t().faction_cards[faction])
        if (card >= start)
            for (int k = 0; k < hand[card]; k++) full.push_back(card);
    if (st.t().assassin_card >= 0) assassins += hand[st.t().assassin_card];
    return {std::move(full), assassins};
}

// _completes: some completion of ``staged`` (cards of type >= ``start`` added) can be committed.
bool completes(State& st, int seat, int faction, int role, const std::vector<int>& staged, int start) {
    const std::vector<int>* target = target_of(st, faction, role);
    auto [cards, assassins] = completion(st, seat, faction, staged, start);
    return can_take(st, cards, target, std::min(assassins, assassin_room(st, target)));
}

// attempt
void attempt(State& st, int faction, int seat, int role) {
    if (completes(st, seat, faction, role, {}, 0)) {
        st.staged.clear();
        ask(st, Pending{TAKEOVER_SET, seat, faction, role});
    } else {
        // The same words as a chosen refusal: the log must not reveal that the hand had no set (R1).
        LOG(st, seat, seat_name(seat), " declines to take over the ", faction_name(st, faction));
        after_decline(st, faction, role);
    }
}

// _legal_takeover
void legal_takeover(State& st, const Pending& pending, std::vector<Action>& out) {
    int seat = pending.seat, faction = pending.faction, role = pending.index;
    const std::vector<int>* target = target_of(st, faction, role);
    auto& hand = st.players[seat].hand;
    const std::vector<int> staged = st.staged;
    int last = staged.empty() ? -1 : staged.back();
    auto [cards, assassins] = split(st, staged);
    std::vector<int> candidates = st.t().faction_cards[faction];
    if (assassins < assassin_room(st, target))
        candidates.push_back(st.t().assassin_card);  // R31: only against a target with room left
    std::vector<int> with = staged;
    with.push_back(0);
    for (int card : candidates) {
        if (card < last || !hand[card]) continue;
        hand[card] -= 1;
        with.back() = card;
        bool ok = completes(st, seat, faction, role, with, card);
        hand[card] += 1;
        if (ok) out.push_back(pick_card(card));
    }
    if (can_take(st, cards, target, assassins)) out.push_back(commit());
    out.push_back(decline());
}

// _assassinate: R31, each assassin removes the target's current highest card; both go to the discard pile (E41).
void assassinate(State& st, int faction, int seat, int role, int assassins) {
    std::vector<int>* target = target_of(st, faction, role);
    if (target == nullptr) throw std::logic_error("assassins against an uncontrolled faction");
    int second = st.spaces[st.t().faction_spaces[faction][1]];
    int owner = role == FIRST_OVER_SECOND ? second : st.controller[faction];
    std::vector<int> removed;
    for (int i = 0; i < assassins; i++) removed.push_back(remove_highest(st, *target));
    st.discard.insert(st.discard.end(), removed.begin(), removed.end());
    for (int i = 0; i < assassins; i++) st.discard.push_back(st.t().assassin_card);
    LOG(st, seat, seat_name(seat), " plays ", assassins, " assassin(s): ", card_names(st, removed), " removed from ",
        seat_name(owner), "'s ", faction_name(st, faction), " set and discarded with the assassin(s) (R31)");
}

// _resolve_takeover
void resolve_takeover(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat, faction = pending.faction, role = pending.index;
    if (action.type == A_PICK_CARD) {
        stage(st, pending, action.a);
        return;
    }
    if (action.type == A_DECLINE) {
        unstage(st, seat);
        LOG(st, seat, seat_name(seat), " declines to take over the ", faction_name(st, faction));
        after_decline(st, faction, role);
        return;
    }
    std::vector<int> staged;
    staged.swap(st.staged);
    auto [cards, assassins] = split(st, staged);
    LOG(st, seat, seat_name(seat), " plays ", card_names(st, cards), " for the ", faction_name(st, faction));
    if (assassins) assassinate(st, faction, seat, role, assassins);
    int first = st.spaces[st.t().faction_spaces[faction][0]];
    if (role == SECOND_FIRST) {
        drop_controller(st, faction);  // R15 (amended): the beaten set leaves the table at once
        st.contest = std::move(cards);
        push(st, task(S_attempt, faction, first, FIRST_OVER_SECOND));
    } else if (role == FIRST_OVER_SECOND) {
        int second = st.spaces[st.t().faction_spaces[faction][1]];
        win(st, faction, seat, std::move(cards));
        push(st, task(S_takeover_penalty, faction, second));
    } else {
        win(st, faction, seat, std::move(cards));
    }
}

// _after_decline
void after_decline(State& st, int faction, int role) {
    const auto& ids = st.t().faction_spaces[faction];
    int first = st.spaces[ids[0]], second = st.spaces[ids[1]];
    if (role == SECOND_FIRST) {
        push(st, task(S_attempt, faction, first, ALONE));
    } else if (role == FIRST_OVER_SECOND) {
        std::vector<int> cards;
        cards.swap(st.contest);
        win(st, faction, second, std::move(cards));
    }
}

// win: ``seat`` takes control with ``cards``; rewards follow in the order of R17.
void win(State& st, int faction, int seat, std::vector<int> cards) {
    drop_controller(st, faction);
    st.controller[faction] = seat;
    bool has_leader =
        std::find(cards.begin(), cards.end(), st.t().leader_card[faction]) != cards.end();
    st.sets[faction] = std::move(cards);
    LOG(st, seat, seat_name(seat), " takes over the ", faction_name(st, faction));
    std::vector<Task> rewards{task(S_takeover_benefit, faction, seat)};
    if (has_leader) rewards.push_back(task(S_leader, faction, seat));
    rewards.push_back(task(S_marker, faction, seat));
    rewards.push_back(task(S_first_laurel, faction, seat));
    push(st, rewards);
}

// _drop_controller: the controller of ``faction`` (if any) loses it: his set goes to the discard pile, R18 applies.
void drop_controller(State& st, int faction) {
    int previous = st.controller[faction];
    if (previous < 0) return;
    auto& set = st.sets[faction];
    st.discard.insert(st.discard.end(), set.begin(), set.end());
    set.clear();
    st.controller[faction] = -1;
    LOG(st, previous, seat_name(previous), " loses the ", faction_name(st, faction), " and discards the beaten set");
    if (faction == VESTALS && st.players[previous].temporary_favor) {
        st.players[previous].temporary_favor = false;
        touch(st, previous);
        LOG(st, previous, seat_name(previous), " returns the temporary favor of the gods (R18)");
    }
}

// takeover_penalty: R15, beaten by "1", the player on "2" takes the set back and discards one of its cards.
void takeover_penalty(State& st, int faction, int seat) { ask(st, Pending{TAKEOVER_PENALTY, seat, faction, -1}); }

// _legal_penalty
void legal_penalty(State& st, const Pending&, std::vector<Action>& out) {
    std::vector<int> cards = st.contest;
    std::sort(cards.begin(), cards.end());
    cards.erase(std::unique(cards.begin(), cards.end()), cards.end());
    for (int c : cards) out.push_back(pick_card(c));
}

// _resolve_penalty
void resolve_penalty(State& st, const Pending& pending, const Action& action) {
    std::vector<int> cards;
    cards.swap(st.contest);
    cards.erase(std::find(cards.begin(), cards.end(), action.a));
    st.discard.push_back(action.a);
    for (int card : cards) st.players[pending.seat].hand[card] += 1;
    LOG(st, pending.seat, seat_name(pending.seat), " takes the set back and discards ", st.t().card_name(action.a),
        " as a penalty (R15)");
}

}  // namespace

void register_takeovers() {
    STEPS[S_takeover] = [](State& st, const Task& t) { takeover(st, t.a[0]); };
    STEPS[S_end_takeover] = [](State& st, const Task& t) { end_takeover(st, t.a[0]); };
    STEPS[S_attempt] = [](State& st, const Task& t) { attempt(st, t.a[0], t.a[1], t.a[2]); };
    STEPS[S_takeover_penalty] = [](State& st, const Task& t) { takeover_penalty(st, t.a[0], t.a[1]); };
    DECISIONS[TAKEOVER_SET] = {legal_takeover, resolve_takeover, false, false, true};
    DECISIONS[TAKEOVER_PENALTY] = {legal_penalty, resolve_penalty, false, false, false};
}

}  // namespace tribune
