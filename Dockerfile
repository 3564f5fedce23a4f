# One image for the crawler workers and the (optional) sandbox web.
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 \
    TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS="" \
    SCRAPY_SETTINGS_MODULE=bilingual_spider.settings
WORKDIR /app
COPY pyproject.toml README.md scrapy.cfg ./
COPY bilingual_spider ./bilingual_spider
COPY models ./models
RUN pip install --no-cache-dir -e .
RUN useradd --create-home crawler
USER crawler
CMD ["scrapy", "crawl", "forward"]
