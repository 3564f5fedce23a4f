"""Where the detector keeps per-site state: detections under way and verdicts, one per site.

A crawl asks :meth:`SiteStore.claim` before it starts detecting a site, so that a site is judged
once even when many of its pages are reached; workers of a distributed crawl share one store
(:class:`bilingual_spider.distributed.site_store.RedisSiteStore`; this module holds the
interface and the in-memory default).
"""

from __future__ import annotations

import pickle
import zlib
from collections.abc import MutableMapping
from typing import Any, Protocol

from bilingual_spider.detection.detector import DetectionState, SiteVerdict


class ConcurrentUpdate(Exception):
    """Another worker saved the site's state since this one loaded it: load it again and redo."""


class SiteJudged(ValueError):
    """The site has its verdict already: its state is not saved (another worker gave it)."""


class SiteStore(Protocol):
    """Per-site detector state. ``site`` is the key the crawl uses (a host name by default)."""

    def claim(self, site: str) -> bool:
        """Start detecting ``site``: True for the first caller; False when the site already has
        a verdict or a detection under way."""
        ...

    def load(self, site: str) -> DetectionState | None:
        """The state of a detection under way (None when there is none)."""
        ...

    def save(self, state: DetectionState) -> None:
        """Keep the state of a detection under way (between probe answers). A shared store
        raises :class:`ConcurrentUpdate` when the state changed since this caller loaded it;
        :class:`SiteJudged` when the site has its verdict."""
        ...

    def finish(self, verdict: SiteVerdict) -> bool:
        """Record the site's verdict and drop its state; False (nothing recorded) when the site
        already had a verdict."""
        ...

    def verdict(self, site: str) -> SiteVerdict | None:
        """The site's verdict, once reached."""
        ...

    def unfinished(self) -> list[str]:
        """Sites claimed that have no verdict yet."""
        ...

    def written_by(self, site: str) -> str | None:
        """The worker that last saved the site's state or recorded its verdict (a shared store;
        None when not known)."""
        ...

    def take_over_claim(self, site: str, dead: str) -> bool:
        """The claim on ``site`` of ``dead``, a worker that died while processing a request now
        redelivered, becomes this caller's (True), when ``dead`` holds it and saved no state or
        verdict of the site: the caller begins the site afresh. False otherwise (a shared store;
        one process never takes a claim over)."""
        ...

    def forget_claims(self) -> int:
        """A worker restarted under its former name: its former self's claims on sites it saved
        no state or verdict of are dropped (their first pages claim them again); how many."""
        ...

    def judged_here(self) -> list[str]:
        """The sites whose verdict this worker (or its former self, by its name) recorded, or
        whose state it saved last; one process: every site judged."""
        ...

    def verdicts_since(self, cursor: int) -> tuple[list[tuple[str, bool]], int]:
        """The verdicts recorded after the first ``cursor`` verdicts of the crawl, every
        worker's, as ``(site, bilingual)``, and the cursor to ask with next time (a shared store:
        a worker learns the verdicts other workers gave on sites it reached or linked to)."""
        ...


class InMemorySiteStore:
    """A :class:`SiteStore` in this process's memory (the default of a single-process crawl).

    A verdict is kept for the whole crawl (one per site judged), and asked for again only when
    its site comes back (a home page asked twice, a verdict emitted again): it is kept pickled
    and compressed, about a third of its objects' bytes (a verdict of three pages of evidence:
    1.7 KB as objects, 0.5 KB so)."""

    def __init__(
        self,
        claimed: Any = None,
        states: MutableMapping[str, DetectionState] | None = None,
        verdicts: MutableMapping[str, bytes] | None = None,
    ) -> None:
        """The collections default to this process's memory; a ``JOBDIR`` crawl's are kept in
        its frontier's file (:mod:`bilingual_spider.state.sqlite`): ``claimed``, a set."""
        self._claimed: Any = set() if claimed is None else claimed
        self._states: MutableMapping[str, DetectionState] = {} if states is None else states
        self._verdicts: MutableMapping[str, bytes] = {} if verdicts is None else verdicts

    def claim(self, site: str) -> bool:
        if site in self._claimed or site in self._verdicts:
            return False
        self._claimed.add(site)
        return True

    def load(self, site: str) -> DetectionState | None:
        return self._states.get(site)

    def save(self, state: DetectionState) -> None:
        if state.site in self._verdicts:
            raise SiteJudged(f"{state.site} already has a verdict")
        self._states[state.site] = state

    def finish(self, verdict: SiteVerdict) -> bool:
        self._states.pop(verdict.site, None)
        self._claimed.discard(verdict.site)
        if verdict.site in self._verdicts:
            return False
        self._verdicts[verdict.site] = _packed(verdict)
        return True

    def verdict(self, site: str) -> SiteVerdict | None:
        packed = self._verdicts.get(site)
        return None if packed is None else _unpacked(packed)

    def unfinished(self) -> list[str]:
        return sorted(self._claimed)

    def written_by(self, site: str) -> str | None:
        return None  # one worker

    def take_over_claim(self, site: str, dead: str) -> bool:
        return False  # one process: no other worker to die

    def forget_claims(self) -> int:
        """After a restart (a crawl resumed after a kill): the claims on sites nothing was saved
        of are let go (their first pages, given again, claim them again); the number."""
        lost = [site for site in self._claimed if site not in self._states]
        for site in lost:
            self._claimed.discard(site)
        return len(lost)

    def verdicts_since(self, cursor: int) -> tuple[list[tuple[str, bool]], int]:
        return [], cursor  # one process: it saw every verdict as it gave it

    def judged_here(self) -> list[str]:
        return list(self._verdicts)

    def __len__(self) -> int:
        """Sites with a verdict."""
        return len(self._verdicts)


def _packed(verdict: SiteVerdict) -> bytes:
    return zlib.compress(pickle.dumps(verdict, protocol=pickle.HIGHEST_PROTOCOL))


def _unpacked(packed: bytes) -> SiteVerdict:
    verdict = pickle.loads(zlib.decompress(packed))  # bytes this store wrote
    assert isinstance(verdict, SiteVerdict)
    return verdict
