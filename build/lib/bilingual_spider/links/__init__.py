"""Links of a page and what they tell (pure, no Scrapy): contexts and features."""
