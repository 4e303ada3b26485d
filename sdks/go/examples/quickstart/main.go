// Scrape a page, crawl a site and follow its pages as they arrive: `go run ./examples/quickstart <url>`.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	trawl "github.com/trawl/trawl/sdks/go"
)

func main() {
	ctx := context.Background()
	client := trawl.New(trawl.Options{}) // TRAWL_API_URL and TRAWL_API_KEY from the environment
	url := "https://example.com"
	if len(os.Args) > 1 {
		url = os.Args[1]
	}
	page, err := client.Scrape(ctx, trawl.ScrapeRequest{URL: url, ScrapeOptions: trawl.ScrapeOptions{Formats: []string{"markdown", "links"}}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Markdown)

	crawl, err := client.StartCrawl(ctx, trawl.CrawlRequest{URL: url, MaxPages: 10})
	if err != nil {
		log.Fatal(err)
	}
	stream := client.StreamCrawl(ctx, crawl.ID, trawl.StreamOptions{})
	defer stream.Close()
	for stream.Next() {
		fmt.Println(stream.Event().ID, stream.Event().Event, string(stream.Event().Data))
	}
	if err := stream.Err(); err != nil {
		log.Fatal(err)
	}

	if _, err := client.GetCrawl(ctx, "00000000-0000-4000-8000-000000000000", trawl.PageQuery{}); errors.Is(err, trawl.ErrNotFound) {
		fmt.Println("not found:", err)
	}
}
