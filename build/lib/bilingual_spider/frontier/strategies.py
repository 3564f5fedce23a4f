"""The four crawling strategies compared by Barbosa et al. (2011), section 3, and the rules of the
out-of-site back/forward crawl (section 2.2, Algorithm 1).

- **FC**, forward crawler: follows the out-of-site links of every page, in random order.
- **FocC**, focused crawler (Chakrabarti et al. 2002) on a topic (travel by default): a page
  classifier keeps on-topic pages' links, a link classifier orders them.
- **OBFC**, out-of-site back/forward crawler: backlinks of every bilingual site found, then the
  out-of-site links of those backlink pages; no prioritisation.
- **COBFC**: OBFC with the Backlink and Forward-Link classifiers ordering the frontier.

In every strategy each new site reached goes through the bilingual-site detector, whose probes are
the only in-site fetches, and each site gets one verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum


class Strategy(StrEnum):
    FC = "fc"
    FOCC = "focc"
    OBFC = "obfc"
    COBFC = "cobfc"


@dataclass(frozen=True)
class StrategyRules:
    """What a strategy does with pages and links."""

    follows_every_page: bool
    """Out-of-site links of every fetched page are followed (FC, FocC); else only those of
    backlink pages (OBFC, COBFC: forward pages' own links are not followed)."""
    expands_backlinks: bool
    """The backlinks of each bilingual site are requested (OBFC, COBFC)."""
    link_classifiers: bool
    """The Backlink and Forward-Link classifiers order the frontier (COBFC)."""
    topic_focus: bool
    """A topic page classifier decides whose links are followed (FocC)."""
    random_order: bool
    """Links are taken in random order (FC)."""


RULES: dict[Strategy, StrategyRules] = {
    Strategy.FC: StrategyRules(True, False, False, False, True),
    Strategy.FOCC: StrategyRules(True, False, False, True, False),
    Strategy.OBFC: StrategyRules(False, True, False, False, False),
    Strategy.COBFC: StrategyRules(False, True, True, False, False),
}


def parse_strategy(text: str | Strategy) -> Strategy:
    """``fc``, ``focc``, ``obfc`` or ``cobfc`` (any case), with an error naming the choices."""
    try:
        return Strategy(str(getattr(text, "value", text)).strip().lower())
    except ValueError:
        choices = ", ".join(s.value for s in Strategy)
        raise ValueError(f"unknown strategy {text!r}: choose one of {choices}") from None


def follows_links_of(role: str, rules: StrategyRules, on_topic: bool = True) -> bool:
    """Whether the out-of-site links of a page fetched in ``role`` become requests.

    Seeds and backlink pages always give links (a seed is where the crawl starts; a backlink
    page's links are the bipartite graph's forward side); forward pages only in FC and FocC (for
    FocC, only when the page is on topic). Probes never: they serve the detector only."""
    if role == "probe":
        return False
    if role in ("seed", "backlink"):
        return not rules.topic_focus or on_topic
    return rules.follows_every_page and (not rules.topic_focus or on_topic)


def out_of_site(
    links: Iterable[str], site_of_page: str, site_of: Callable[[str], str]
) -> list[str]:
    """The links of a page that leave its site (``site_of`` maps a URL to its site key), each
    once, in page order: "the crawler only considers out-of-site links"."""
    seen: set[str] = set()
    kept = []
    for url in links:
        site = site_of(url)
        if site and site != site_of_page and url not in seen:
            seen.add(url)
            kept.append(url)
    return kept
