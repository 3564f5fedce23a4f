"""PupSniffer's pure core: URL units, pairing patterns, their credibility, and pair discovery.

Zhang, Ma, Jie, Yao (JCIP 2018), after Kit & Ng (2007), Zhang, Yao, Kit (2013) and Ma & Zhang
(2014). Equations are cited next to the functions that implement them. Nothing here fetches,
reads files or imports Scrapy: the spider and the CLI feed URLs, texts and statuses in.
"""
