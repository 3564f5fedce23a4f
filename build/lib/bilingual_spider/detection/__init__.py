"""Bilingual-site detection (Barbosa et al. 2011, section 2.1): link predictor and verdict logic."""
