"""Scrape a page, crawl a site and follow its pages as they arrive: `python3 examples/quickstart.py <url>`
after `pip install ./sdks/python`."""
import sys

from trawl import NotFoundError, Trawl

trawl = Trawl()  # TRAWL_API_URL and TRAWL_API_KEY from the environment
url = sys.argv[1] if len(sys.argv) > 1 else "https://example.com"

print(trawl.scrape(url, formats=["markdown", "links"])["markdown"][:200])

crawl = trawl.start_crawl(url, max_pages=10)
for event in trawl.stream_crawl(crawl["id"]):
    if event["event"] == "page":
        print(event["id"], event["data"]["url"], event["data"]["status"])

try:
    trawl.get_crawl("00000000-0000-4000-8000-000000000000")
except NotFoundError as err:
    print(err.status, err.message)
