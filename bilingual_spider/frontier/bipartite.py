"""The bipartite graph of a back-and-forth crawl and the training examples it yields (Barbosa et
al. 2011, sections 2.2-2.3).

Backlink pages (BPs) of the bilingual sites found link to forward pages; "relevant links in the
forward pages' set represent URLs of bilingual sites [...] whereas relevant links in the backlink
pages' set are URLs of backlink pages that contain outlinks to bilingual sites". So:

- a forward link is labelled when the site it reached gets its verdict (relevant = bilingual);
- a backlink is labelled relevant as soon as one site its page links to is judged bilingual, and
  non-relevant once every site it links to has been judged and none was.

:class:`BipartiteGraph` keeps what that needs and hands out each label once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

BACKLINK = "backlink"
FORWARD = "forward"


def leaves_site(url: str, site: str, page_site: str) -> bool:
    """Whether a link to ``url`` (of ``site``) on a page of ``page_site`` leaves for another web
    site: the links the bipartite graph follows (once per site: :meth:`BipartiteGraph.reach`)."""
    return bool(site) and site != page_site and url.startswith("http")


@dataclass(frozen=True)
class LinkExample:
    """One labelled link for the classifier of ``role``."""

    role: str
    tokens: tuple[str, ...]
    relevant: bool


@dataclass
class BipartiteGraph:
    """Sites reached, backlink pages and their out-of-site links, verdicts."""

    verdicts: dict[str, bool] = field(default_factory=dict)
    _reached_by: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _backlink_tokens: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _pending_children: dict[str, set[str]] = field(default_factory=dict)
    _parents: dict[str, set[str]] = field(default_factory=dict)
    _backlink_pages: set[str] = field(default_factory=set)

    def reach(self, site: str, tokens: Iterable[str] = ()) -> bool:
        """A link to ``site`` is about to be followed; ``False`` when the site was reached
        already (one request, one verdict per site). ``tokens``: the link's features, kept until
        the verdict labels them."""
        if site in self._reached_by or site in self.verdicts:
            return False
        self._reached_by[site] = tuple(tokens)
        return True

    def reached(self, site: str) -> bool:
        return site in self._reached_by or site in self.verdicts

    def not_followed(self, site: str) -> None:
        """The link :meth:`reach` kept for ``site`` was not followed after all (its request was
        dropped: with several workers, another one's link to the site is followed): the site
        stays reached, and its verdict labels no link of this graph."""
        if site in self._reached_by:
            self._reached_by[site] = ()

    def claim_backlink_page(self, url: str) -> bool:
        """A backlink page is about to be requested; ``False`` when it was requested already (a
        hub is a backlink of many bilingual sites, and its out-of-site links are the same for
        each: one fetch)."""
        if url in self._backlink_pages:
            return False
        self._backlink_pages.add(url)
        return True

    def add_backlink_page(
        self, url: str, tokens: Iterable[str], linked_sites: Iterable[str]
    ) -> list[LinkExample]:
        """A backlink page was fetched and links to ``linked_sites`` (out of its site). Returns
        its label at once when one of them is already known to be bilingual."""
        children = {site for site in linked_sites if site}
        if any(self.verdicts.get(site) for site in children):
            return [LinkExample(BACKLINK, tuple(tokens), True)]
        pending = {site for site in children if site not in self.verdicts}
        if not pending:
            return [LinkExample(BACKLINK, tuple(tokens), False)] if children else []
        self._backlink_tokens[url] = tuple(tokens)
        self._pending_children[url] = pending
        for site in pending:
            self._parents.setdefault(site, set()).add(url)
        return []

    def judge(self, site: str, bilingual: bool) -> list[LinkExample]:
        """``site`` got its verdict: the labels it settles (its forward link, and the backlink
        pages that were waiting for it)."""
        if site in self.verdicts:
            return []
        self.verdicts[site] = bilingual
        examples = []
        tokens = self._reached_by.pop(site, None)
        if tokens:
            examples.append(LinkExample(FORWARD, tokens, bilingual))
        for page in self._parents.pop(site, ()):
            pending = self._pending_children.get(page)
            if pending is None:
                continue  # labelled already
            pending.discard(site)
            if bilingual or not pending:
                examples.append(LinkExample(BACKLINK, self._backlink_tokens.pop(page), bilingual))
                self._forget(page, pending)
        return examples

    def _forget(self, page: str, pending: set[str]) -> None:
        del self._pending_children[page]
        for site in pending:
            parents = self._parents.get(site)
            if parents is not None:
                parents.discard(page)
                if not parents:
                    del self._parents[site]

    @property
    def backlink_pages_waiting(self) -> int:
        return len(self._pending_children)
