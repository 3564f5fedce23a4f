"""The crawl frontier's research core: online link classifiers, strategies, lazy re-scoring."""
