module github.com/trawl/trawl/sdks/go

go 1.19
