"""Which rulings change under a house variant: each scenario ruled by the code and by the house."""

from __future__ import annotations

from msgspec import Struct

from adjudicate.errors import AdjudicateError, ScenarioError
from adjudicate.lawbook.house import house_rulebook
from adjudicate.ruling.decision import Decision, decide
from adjudicate.lawbook.ruled_by import code_rulebook
from adjudicate.record.scenario import load_scenario


class RulingSummary(Struct, frozen=True):
    """A ruling in short: the laws, those defeated, each remedy's options, the rulings and the scores."""

    laws: tuple[str, ...]
    remedies: tuple[str, ...]
    rulings: tuple[str, ...]
    not_applied: tuple[str, ...] = ()
    scores: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        return [f"laws {', '.join(self.laws) or 'none'}", *self.not_applied, *self.remedies, *self.rulings,
                *self.scores]


class Difference(Struct, frozen=True):
    path: str
    status: str
    """"changed", "same", "skipped" (another code) or "invalid"."""
    code: RulingSummary | None = None
    house: RulingSummary | None = None
    note: str | None = None


def summarise(decision: Decision) -> RulingSummary:
    remedies = []
    for outcome in decision.remedies:
        options = []
        for item in outcome.options:
            text = item.option.kind.replace("_", " ") \
                + (f" {item.option.points}" if item.option.points is not None else "") \
                + (f" {item.option.tricks} tricks" if item.option.tricks is not None else "")
            options.append(text)
        made = f" (made: {outcome.made.option.kind.replace('_', ' ')})" if outcome.made else ""
        remedies.append(f"law {outcome.law.id}: {outcome.chooser} may {' or '.join(options) or 'choose'}{made}")
    rulings = [f"law {item.law.id}: {item.declaration.kind.replace('_', ' ')}" for item in decision.declarations]
    # "law 4 not applied: law 63 supersedes it", in the rulebook's own verb (Euchre 68 bars, 71 cancels).
    defeated = [f"law {item.law.id}{'' if item.defeat.what == 'law' else chr(39) + 's ' + item.defeat.what} not "
                f"applied: law {item.by.id} {item.defeat.how} {'it' if item.defeat.what == 'law' else 'them'}"
                for item in decision.not_applied]
    scores = []
    for result in decision.score.outcomes if decision.score else ():
        after = result.effect.score_after
        if after:
            chosen = ", ".join(f"{remedy.law.id} {item.option.kind}" for remedy, item in result.choices)
            scores.append(f"score {', '.join(f'{side} {points}' for side, points in after.items())}"
                          + (f" if {chosen}" if chosen else ""))
    return RulingSummary(tuple(decision.law_ids), tuple(remedies), tuple(rulings), tuple(defeated), tuple(scores))


def diff(house: str, paths) -> list[Difference]:
    """Rule every scenario under `paths` by its code and by the house; say which change."""
    from adjudicate.play.facts import detect
    from adjudicate.play.replay import replay

    from adjudicate.checking.batch import collect

    varied = house_rulebook(house)
    collection = collect(paths)
    results = [Difference(problem.path, "invalid", note=problem.findings[0].message if problem.findings else None)
               for problem in collection.problems]
    for path in collection.files:
        try:
            scenario = load_scenario(path)
            base = code_rulebook(scenario)  # the code itself, without the scenario's own house
            if base.code != varied.code:
                results.append(Difference(path, "skipped", note=f"its code is {scenario.code}, the house varies "
                                                                 f"{varied.code}"))
                continue
            before_table = replay(scenario, base.game)
            before = decide(base, before_table, detect(before_table))
        except AdjudicateError as error:
            results.append(Difference(path, "invalid", note=str(error).splitlines()[0]))
            continue
        note = None
        try:
            after_table = replay(scenario, varied.game)
        except ScenarioError:
            # The hand holds cards the house's pack has not (a 24-card pack and a seven): the laws
            # are still compared, on the hand as dealt with the code's pack.
            after_table = before_table
            note = f"replayed with the code's pack: the hand holds cards the house's {len(varied.game.pack)}-card pack has not"
        after = decide(varied, after_table, detect(after_table), house)
        code_summary, house_summary = summarise(before), summarise(after)
        status = "same" if code_summary == house_summary else "changed"
        results.append(Difference(path, status, code_summary, house_summary, note))
    return results
