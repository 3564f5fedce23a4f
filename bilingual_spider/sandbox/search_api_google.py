"""Web search in the format of the Google Custom Search JSON API (``GET /customsearch/v1``).

Parameters as Google documents them (cse.list): ``key`` and ``cx`` (required, any value), ``q``,
``num`` (1-10, default 10), ``start`` (1-based; at most 100 results are reachable, as the real
API never returns more than 100), and ``siteSearch``/``siteSearchFilter``, ``fileType``,
``exactTerms``, ``excludeTerms``, ``lr`` (``lang_fr``). The answer has ``kind``, ``url``,
``queries`` (``request``, ``nextPage``, ``previousPage``), ``context``, ``searchInformation``
(``totalResults`` is a string, as in the real API) and ``items`` with ``title``, ``htmlTitle``,
``link``, ``displayLink``, ``snippet``, ``htmlSnippet``, ``formattedUrl``, ``htmlFormattedUrl``
and, for non-HTML files only, ``mime`` and ``fileFormat``. With no results there is no ``items``
key. Errors use Google's error JSON (``{"error": {"code", "message", "errors", "status"}}``).

The query language over the status-200 pages of the engine's index:

- words match title, snippet and URL tokens (all words must match); ``"a phrase"`` must occur in
  the title or snippet; ``-word`` excludes; Chinese and Japanese text matches character by
  character;
- ``site:`` a host (and its subdomains), a registered domain, a TLD (``site:hk``, ``site:.hk``)
  or a host and path prefix (``site:example.com/en/``);
- ``inurl:`` a substring of the URL; ``intitle:`` a title word; ``filetype:``/``ext:`` the file
  extension (``html`` also matches HTML pages with no extension); any operator may be negated.

Ranking is deterministic: match score (a word in the title counts 2, in the snippet or URL 1),
then Page Authority, then URL.
"""

from __future__ import annotations

import html
import re
from array import array
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from bilingual_spider.sandbox.engine_index import EngineIndex, split_url
from bilingual_spider.sandbox.search_api_http import ApiAnswer, json_answer

PATH = "/customsearch/v1"
MAX_REACHABLE = 100  # "The JSON API will never return more than 100 results"
MAX_NUM = 10
TITLE, SNIPPET, URL = 1, 2, 4
_WEIGHTS = np.array([0, 2, 1, 3, 1, 3, 2, 4], dtype=np.int32)  # score of a field bit set
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(f"[{_CJK}]|[^\\W_{_CJK}]+")  # one CJK character, or a run of other letters
_HAS_CJK = re.compile(f"[{_CJK}]")
_TERM = re.compile(r'(-?)(?:(\w+):)?("[^"]*"?|\S+)')
OPERATORS = frozenset({"site", "inurl", "intitle", "filetype", "ext"})
_FILE_FORMATS = {
    "application/pdf": "PDF/Adobe Acrobat",
    "application/msword": "Microsoft Word",
    "application/vnd.ms-excel": "Microsoft Excel",
    "application/vnd.ms-powerpoint": "Microsoft Powerpoint",
    "text/plain": "Text",
    "application/rtf": "Rich Text Format",
}
_CACHE_SIZE = 256
_ERROR_STATUS = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND"}
_ERROR_STATUS.update({405: "METHOD_NOT_ALLOWED", 429: "RESOURCE_EXHAUSTED"})


def tokenize(text: str) -> list[str]:
    """Lower-case words; runs of Chinese or Japanese characters become one token per character."""
    return _TOKEN.findall(text.lower())


def google_error(status: int, message: str, reason: str, headers: dict | None = None) -> ApiAnswer:
    """Google's error JSON."""
    return json_answer(
        status,
        {
            "error": {
                "code": status,
                "message": message,
                "errors": [{"message": message, "domain": "global", "reason": reason}],
                "status": _ERROR_STATUS.get(status, "UNKNOWN"),
            }
        },
        headers,
        indent=2,
    )


def invalid_argument() -> ApiAnswer:
    return google_error(400, "Request contains an invalid argument.", "badRequest")


def file_extension(url: str, mime: str) -> str:
    """The extension ``filetype:`` sees: ``page.php?lang=fr`` -> ``php``, ``a.html.es`` ->
    ``html``, an extension-less HTML page -> ``html``."""
    name = split_url(url)[1].partition("?")[0].rsplit("/", 1)[-1].lower()
    if re.search(r"\.html?(\.|$)", name):
        return "html"
    if "." in name:
        return name.rsplit(".", 1)[1]
    return "html" if mime.startswith("text/html") or not mime else ""


@dataclass
class ParsedQuery:
    words: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    title_words: list[str] = field(default_factory=list)
    # (negated, value)
    sites: list[tuple[bool, str]] = field(default_factory=list)
    inurls: list[tuple[bool, str]] = field(default_factory=list)
    filetypes: list[tuple[bool, str]] = field(default_factory=list)
    language: str = ""

    @property
    def empty(self) -> bool:
        terms = (self.words, self.phrases, self.title_words, self.excluded)
        return not any((*terms, self.sites, self.inurls, self.filetypes))


def parse_query(q: str, operators: frozenset[str] = OPERATORS) -> ParsedQuery:
    """The terms of ``q``; an operator not in ``operators`` is two words (``foo:bar``). ``lang:``
    (when an operator) sets the language."""
    parsed = ParsedQuery()
    for negated, operator, value in _TERM.findall(q):
        negate = negated == "-"
        operator = operator.lower()
        if operator and operator not in operators:  # "foo:bar" is two words
            value, operator = f"{operator} {value}", ""
        if value.startswith('"'):
            phrase = " ".join(tokenize(value))
            if phrase and not operator:
                (parsed.excluded if negate else parsed.phrases).append(phrase)
                if not negate:
                    parsed.words.extend(phrase.split())
                continue
            value = value.strip('"')
        if not value:
            continue
        if operator == "site":
            parsed.sites.append((negate, value.lower()))
        elif operator == "inurl":
            parsed.inurls.append((negate, value.lower()))
        elif operator in ("filetype", "ext"):
            parsed.filetypes.append((negate, value.lower().lstrip(".")))
        elif operator == "lang" and not negate:
            parsed.language = value.lower().split("-")[0]
        elif operator == "intitle":
            (parsed.excluded if negate else parsed.title_words).extend(tokenize(value))
        elif negate:
            parsed.excluded.append(" ".join(tokenize(value)))
        else:
            parsed.words.extend(tokenize(value))
    return parsed


class TextIndex:
    """Token -> (documents, field bits) postings over the status-200 pages."""

    def __init__(self, index: EngineIndex) -> None:
        self.docs_all = index.pages_with_status(200)
        vocabulary: defaultdict[str, int] = defaultdict()
        vocabulary.default_factory = vocabulary.__len__  # a new token gets the next id
        token_id = vocabulary.__getitem__
        tokens, docs, bits = array("i"), array("i"), array("b")
        titles, snippets, urls = index.title, index.snippet, index.urls
        for doc in self.docs_all.tolist():  # the hot loop of loading: bulk calls only
            title = tokenize(titles[doc])
            snippet = set(tokenize(snippets[doc]))
            url = tokenize(urls[doc].partition("://")[2])
            for found in (title, snippet, url):
                tokens.extend(map(token_id, found))
            docs.extend(repeat(doc, len(title) + len(snippet) + len(url)))
            bits.extend(repeat(TITLE, len(title)))
            bits.extend(repeat(SNIPPET, len(snippet)))
            bits.extend(repeat(URL, len(url)))
        vocabulary.default_factory = None
        self.vocabulary = vocabulary
        # one posting per (token, document), its field bits OR-ed; documents ascending
        token_arr = np.frombuffer(tokens, dtype=np.int32)
        order = np.argsort(token_arr, kind="stable")  # documents were added in ascending order
        keys = (token_arr[order].astype(np.int64) << 32) | np.frombuffer(docs, np.int32)[order]
        bit_arr = np.frombuffer(bits, dtype=np.int8)[order]
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if keys.size else keys
        self.docs = (keys[starts] & 0xFFFFFFFF).astype(np.int32)
        self.bits = np.bitwise_or.reduceat(bit_arr, starts) if keys.size else bit_arr
        counts = np.bincount((keys[starts] >> 32).astype(np.int64), minlength=len(vocabulary))
        self.offsets = np.zeros(len(vocabulary) + 1, dtype=np.int64)
        np.cumsum(counts, out=self.offsets[1:])

    def postings(self, token: str) -> tuple[np.ndarray, np.ndarray]:
        token_id = self.vocabulary.get(token)
        if token_id is None:
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int8)
        start, end = self.offsets[token_id], self.offsets[token_id + 1]
        return self.docs[start:end], self.bits[start:end]


class CustomSearch:
    """The ``customsearch/v1`` endpoint over an engine index."""

    def __init__(self, index: EngineIndex) -> None:
        self.index = index
        self.text = TextIndex(index)
        self._url_rank: np.ndarray | None = None
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def answer(self, method: str, params: dict[str, str]) -> ApiAnswer:
        if method not in ("GET", "HEAD"):
            allow = {"Allow": "GET"}
            return google_error(405, "Method not allowed.", "httpMethodNotAllowed", allow)
        if not params.get("key"):
            return google_error(
                403,
                "Method doesn't allow unregistered callers (callers without established "
                "identity). Please use API Key or other form of API consumer identity to call "
                "this API.",
                "forbidden",
            )
        if not params.get("cx"):
            return invalid_argument()
        try:
            num = int(params.get("num", MAX_NUM))
            start = int(params.get("start", 1))
        except ValueError:
            return invalid_argument()
        if not 1 <= num <= MAX_NUM or start < 1 or start + num - 1 > MAX_REACHABLE:
            return invalid_argument()
        q = params.get("q", "")
        query = parse_query(_full_query(q, params))
        language = params.get("lr", "")
        query.language = language[5:].split("-")[0].lower() if language.startswith("lang_") else ""
        if query.empty and not query.language:
            return google_error(400, "Missing required parameter: q", "required")
        results = self.search(query)
        return json_answer(200, self._json(params, q, results, query, start, num), indent=2)

    def search(self, query: ParsedQuery) -> np.ndarray:
        """URL ids of the matching pages, ranked (cached)."""
        key = repr(query)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._rank(query)
            if len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        return found

    def _rank(self, query: ParsedQuery) -> np.ndarray:
        index = self.index
        docs, score = self._word_matches(query.words + query.title_words, query.title_words)
        for excluded in query.excluded:
            tokens = excluded.split()
            bad, _ = self._word_matches(tokens, [])
            if len(tokens) > 1:  # a phrase: exclude only where it occurs as one
                bad = bad[self._phrase_mask(bad, excluded)]
            keep = ~np.isin(docs, bad)
            docs, score = docs[keep], score[keep]
        mask = np.ones(docs.size, dtype=bool)
        for phrase in query.phrases:
            mask &= self._phrase_mask(docs, phrase)
        for negated, value in query.sites:
            mask &= self._site_mask(docs, value) ^ negated
        for negated, value in query.inurls:
            mask &= _where(docs, lambda d, v=value: v in _bare_url(index.urls[d])) ^ negated
        for negated, value in query.filetypes:
            wanted = "html" if value == "htm" else value
            has_type = _where(
                docs, lambda d, w=wanted: file_extension(index.urls[d], index.mime[d]) == w
            )
            mask &= has_type ^ negated
        if query.language:
            mask &= _where(docs, lambda d: index.lang[d].split("-")[0].lower() == query.language)
        docs, score = docs[mask], score[mask]
        order = np.lexsort((self.url_rank[docs], -index.page_authority[docs], -score))
        return docs[order]

    def _word_matches(
        self, words: list[str], title_words: list[str]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Pages with every word (title words in the title), and their match scores."""
        if not words:
            docs = self.text.docs_all
            return docs, np.zeros(docs.size, dtype=np.int32)
        docs, score = None, None
        for word in dict.fromkeys(words):
            found, bits = self.text.postings(word)
            if word in title_words:
                found, bits = found[(bits & TITLE) != 0], bits[(bits & TITLE) != 0]
            weight = _WEIGHTS[bits.astype(np.int64)]
            if docs is None:
                docs, score = found, weight
                continue
            common, left, right = np.intersect1d(
                docs, found, assume_unique=True, return_indices=True
            )
            docs, score = common, score[left] + weight[right]
        return docs, score

    def _phrase_mask(self, docs: np.ndarray, phrase: str) -> np.ndarray:
        """Pages whose title or snippet has the phrase's tokens in a row."""
        index, padded = self.index, f" {phrase} "
        return _where(
            docs,
            lambda d: padded in f" {' '.join(tokenize(f'{index.title[d]} {index.snippet[d]}'))} ",
        )

    def _site_mask(self, docs: np.ndarray, site: str) -> np.ndarray:
        site = site.split("://", 1)[-1].lstrip(".")
        host_part, _, path = site.partition("/")
        hosts = self.index.hosts
        if "." in host_part:
            ok = [h == host_part or h.endswith("." + host_part) for h in hosts]
        else:  # a TLD
            ok = [h.endswith("." + host_part) for h in hosts]
        mask = np.array(ok, dtype=bool)[self.index.url_host[docs]] if hosts else np.zeros(0, bool)
        if path and mask.any():
            prefix = "/" + path
            urls = self.index.urls
            for i in np.flatnonzero(mask).tolist():
                parts = urlsplit(urls[int(docs[i])])
                full = parts.path + (f"?{parts.query}" if parts.query else "")
                mask[i] = full.startswith(prefix)
        return mask

    @property
    def url_rank(self) -> np.ndarray:
        if self._url_rank is None:
            order = sorted(range(len(self.index.urls)), key=self.index.urls.__getitem__)
            rank = np.empty(len(order), dtype=np.int32)
            rank[np.array(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int32)
            self._url_rank = rank
        return self._url_rank

    # --- JSON ---------------------------------------------------------------------------------

    def _json(
        self,
        params: dict[str, str],
        q: str,
        results: np.ndarray,
        query: ParsedQuery,
        start: int,
        num: int,
    ) -> dict[str, Any]:
        total = int(results.size)
        page = results[start - 1 : start - 1 + num].tolist()

        def request(index: int, count: int) -> dict[str, Any]:
            return {
                "title": f"Google Custom Search - {q}",
                "totalResults": str(total),
                "searchTerms": q,
                "count": count,
                "startIndex": index,
                "inputEncoding": "utf8",
                "outputEncoding": "utf8",
                "safe": "off",
                "cx": params.get("cx", ""),
            }

        queries: dict[str, Any] = {"request": [request(start, num)]}
        following = start + num
        if following <= min(total, MAX_REACHABLE):
            queries["nextPage"] = [request(following, min(num, MAX_REACHABLE - following + 1))]
        if start > 1:
            queries["previousPage"] = [request(max(1, start - num), num)]
        answer: dict[str, Any] = {
            "kind": "customsearch#search",
            "url": {
                "type": "application/json",
                "template": "http://api.sandbox.internal/customsearch/v1?q={searchTerms}"
                "&num={count?}&start={startIndex?}&lr={language?}&safe={safe?}&cx={cx?}"
                "&siteSearch={siteSearch?}&siteSearchFilter={siteSearchFilter?}"
                "&exactTerms={exactTerms?}&excludeTerms={excludeTerms?}&fileType={fileType?}"
                "&alt=json",
            },
            "queries": queries,
            "context": {"title": "Sandbox web search"},
            "searchInformation": {
                "searchTime": 0.12,
                "formattedSearchTime": "0.12",
                "totalResults": str(total),
                "formattedTotalResults": f"{total:,}",
            },
        }
        if page:
            bold = query.words + query.title_words
            answer["items"] = [self._item(doc, bold) for doc in page]
        return answer

    def _item(self, doc: int, bold: list[str]) -> dict[str, Any]:
        index = self.index
        url = index.urls[doc]
        parts = urlsplit(url)
        formatted = url if parts.scheme == "https" else url.split("://", 1)[-1]
        item: dict[str, Any] = {
            "kind": "customsearch#result",
            "title": index.title[doc],
            "htmlTitle": highlight(index.title[doc], bold),
            "link": url,
            "displayLink": parts.hostname or "",
            "snippet": index.snippet[doc],
            "htmlSnippet": highlight(index.snippet[doc], bold),
            "formattedUrl": formatted,
            "htmlFormattedUrl": highlight(formatted, bold),
        }
        mime = index.mime[doc]
        if mime and not mime.startswith("text/html"):
            item["mime"] = mime
            item["fileFormat"] = _FILE_FORMATS.get(mime, mime)
        return item


def _where(docs: np.ndarray, predicate: Callable[[int], bool]) -> np.ndarray:
    """A boolean mask over ``docs``."""
    return np.fromiter((predicate(d) for d in docs.tolist()), bool, docs.size)


def _bare_url(url: str) -> str:
    """The URL without its scheme, in lower case (what ``inurl:`` looks into)."""
    return url.partition("://")[2].lower()


def _full_query(q: str, params: dict[str, str]) -> str:
    """``q`` with the parameters that are operators in disguise folded in."""
    parts = [q]
    if params.get("siteSearch"):
        negate = "-" if params.get("siteSearchFilter") == "e" else ""
        parts.append(f"{negate}site:{params['siteSearch']}")
    if params.get("fileType"):
        parts.append(f"filetype:{params['fileType']}")
    if params.get("exactTerms"):
        parts.append(f'"{params["exactTerms"]}"')
    if params.get("excludeTerms"):
        parts.extend(f"-{term}" for term in params["excludeTerms"].split())
    return " ".join(p for p in parts if p)


def highlight(text: str, words: list[str], tag: str = "b") -> str:
    escaped = html.escape(text, quote=False)
    latin = [re.escape(w) for w in dict.fromkeys(words) if w and not _HAS_CJK.search(w)]
    if not latin:
        return escaped
    pattern = re.compile(r"\b(" + "|".join(latin) + r")\b", re.IGNORECASE)
    return pattern.sub(rf"<{tag}>\1</{tag}>", escaped)
