package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// TestResourcesListSitePages: the resources list, on the dashboard and in
// the API, holds the pages a site sentinel's changes list (by resource id
// or by URL, on the host the crawl was redirected to too) and the start
// page its changes are recorded on, each marked as a page of the site
// sentinel and linked to its history; not a resource under the site that
// no change lists, and none of them for another user.
func TestResourcesListSitePages(t *testing.T) {
	ctx := context.Background()
	s, ada, bob, site, bobs, resource := siteOwners(t)
	start := resource("https://www.a.example/")       // the start page, after a redirect
	moved := resource("https://www.a.example/guide")  // listed by id
	byURL := resource("https://www.a.example/faq")    // listed by URL only
	unlisted := resource("https://www.a.example/new") // crawled, in no change yet
	records, err := json.Marshal([]intent.Change{
		intent.NewPageChange(intent.Insert, &intent.PageInfo{URL: moved.URL, ResourceID: moved.ID}),
		intent.NewPageChange(intent.Delete, &intent.PageInfo{URL: byURL.URL}),
		intent.NewPageChange(intent.Delete, &intent.PageInfo{URL: "https://www.a.example/gone"}), // no resource
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Store.CreateChange(ctx, &vigil.Change{SentinelID: site.ID, ResourceID: start.ID, ToVersion: 1, DetectedAt: time.Now().UTC(),
		Summary: "site http://a.example/: 1 page added, 2 pages removed", Records: records}); err != nil {
		t.Fatal(err)
	}

	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(u *vigil.User, path string) string {
		t.Helper()
		cookie, err := s.newSessionCookie(u)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s as %s: %d %v\n%s", path, u.Email, resp.StatusCode, err, b)
		}
		return string(b)
	}
	link := func(r *vigil.Resource) string {
		return `<a href="/resources/` + strconv.FormatInt(r.ID, 10) + `">` + r.URL + `</a>`
	}
	mark := `page of site <a href="/sentinels/` + strconv.FormatInt(site.ID, 10) + `">docs</a>`
	apiIDs := func(u *vigil.User) map[int64]bool {
		t.Helper()
		var body struct {
			Items []*vigil.Resource `json:"items"`
			Total int               `json:"total"`
		}
		if err := json.Unmarshal([]byte(get(u, "/api/v1/resources")), &body); err != nil {
			t.Fatal(err)
		}
		ids := map[int64]bool{}
		for _, r := range body.Items {
			ids[r.ID] = true
		}
		if body.Total != len(body.Items) {
			t.Errorf("API list of %s: total %d, %d items", u.Email, body.Total, len(body.Items))
		}
		return ids
	}

	page, api := get(ada, "/resources"), apiIDs(ada)
	for _, r := range []*vigil.Resource{start, moved, byURL} {
		if !strings.Contains(page, link(r)+` <small class="site-page">`+mark+`</small>`) {
			t.Errorf("the owner's list: %s not listed as a page of docs:\n%s", r.URL, page)
		}
		if !api[r.ID] {
			t.Errorf("the owner's API list: %s missing", r.URL)
		}
	}
	for _, r := range []*vigil.Resource{bobs, unlisted} {
		if strings.Contains(page, r.URL) || api[r.ID] {
			t.Errorf("the owner's list holds %s, which no change of the site lists", r.URL)
		}
	}

	page, api = get(bob, "/resources"), apiIDs(bob)
	if !strings.Contains(page, link(bobs)) || !api[bobs.ID] {
		t.Errorf("another user's list lost their own page:\n%s", page)
	}
	for _, r := range []*vigil.Resource{start, moved, byURL, unlisted} {
		if strings.Contains(page, r.URL) || api[r.ID] {
			t.Errorf("another user's list holds %s, a page of docs", r.URL)
		}
	}
	if strings.Contains(page, "page of site") {
		t.Errorf("another user's list marks a page of a site:\n%s", page)
	}
}
