package web

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// BenchmarkSitePageAccess measures what the resources list (the dashboard's
// and GET /api/v1/resources) and the readability check of a site's page
// cost for the owner of a long-lived site sentinel: 5,000 changes, each
// listing 3 of the site's 50 pages as modified. "readable/oldest" is a
// page only the oldest change lists, "readable/unlisted" a resource under
// the site that no change lists (answered not found).
//
//	go test ./internal/web -run '^$' -bench SitePageAccess -benchtime 20x
func BenchmarkSitePageAccess(b *testing.B) {
	ctx := context.Background()
	s, ada := newTestServer(b)
	site := createChecked(b, s, ada, "Create Sentinel docs Using site http://a.example/")
	resource := func(url string) *vigil.Resource {
		r, err := s.Store.EnsureResource(ctx, url)
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	start := resource("http://a.example/")
	const nPages, nChanges, perChange = 50, 5000, 3
	pages := make([]*vigil.Resource, nPages)
	for i := range pages {
		pages[i] = resource(fmt.Sprintf("http://a.example/p%d", i))
	}
	oldest := resource("http://a.example/oldest")
	unlisted := resource("http://a.example/unlisted")
	at := time.Now().UTC().Add(-nChanges * time.Hour)
	for i := range nChanges {
		var recs []intent.Change
		for k := range perChange {
			p := pages[(i*perChange+k)%nPages]
			recs = append(recs, intent.NewPageChange(intent.Update, &intent.PageInfo{URL: p.URL, ResourceID: p.ID, OldVersion: 1, NewVersion: 2}))
		}
		if i == 0 {
			recs = append(recs, intent.NewPageChange(intent.Insert, &intent.PageInfo{URL: oldest.URL, ResourceID: oldest.ID}))
		}
		data, err := json.Marshal(recs)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Store.CreateChange(ctx, &vigil.Change{SentinelID: site.ID, ResourceID: start.ID, ToVersion: 1,
			DetectedAt: at.Add(time.Duration(i) * time.Hour), Summary: "site http://a.example/: pages modified", Records: data}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("list", func(b *testing.B) {
		for b.Loop() {
			list, _, err := s.readableResources(ctx, ada, vigil.ResourceFilter{Limit: 1000})
			if err != nil || len(list) != nPages+2 {
				b.Fatalf("%d resources listed (%v), want %d", len(list), err, nPages+2)
			}
		}
	})
	b.Run("readable/oldest", func(b *testing.B) {
		for b.Loop() {
			if err := s.checkReadable(ctx, ada, oldest); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("readable/unlisted", func(b *testing.B) {
		for b.Loop() {
			if err := s.checkReadable(ctx, ada, unlisted); vigil.ErrorCode(err) != vigil.ENOTFOUND {
				b.Fatalf("unlisted page: %v, want ENOTFOUND", err)
			}
		}
	})
}
