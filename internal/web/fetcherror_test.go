package web

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestSentinelFetchErrorShown: the failure of the last fetch of a
// sentinel's page, which the dashboard shows as its last error, is in its
// API view (GET /api/v1/sentinels/{id} and the list) as lastFetchError,
// with failingSince, when the page began to fail (without the sentinel's
// state, the time of the version that says it); a sentinel whose pages' last
// fetches succeeded, even after a failure, or that was never fetched, has
// neither. The API said nothing: a failing sentinel looked quiet.
func TestSentinelFetchErrorShown(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const broken = "fetch http://user:xxxxx@a.example/: HTTP error status 404"
	for _, f := range []*warehouse.Fetch{
		{URL: "http://a.example/", FetchedAt: at.Add(-time.Hour), Status: 200, ContentType: "text/html", Body: []byte("<p>a</p>")},
		{URL: "http://a.example/", FetchedAt: at, Status: 404, Error: broken},
		{URL: "http://b.example/", FetchedAt: at.Add(-time.Hour), Error: "fetch http://b.example/: no such host"},
		{URL: "http://b.example/", FetchedAt: at, Status: 200, ContentType: "text/html", Body: []byte("<p>b</p>")},
	} {
		if _, err := w.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	failing := createChecked(t, s, u, "Create Sentinel failing Using http://b.example/ OR http://a.example/ Fetch 1 hour")
	recovered := createChecked(t, s, u, "Create Sentinel recovered Using http://b.example/ Fetch 1 hour")
	unfetched := createChecked(t, s, u, "Create Sentinel unfetched Using http://c.example/ Fetch 1 hour")
	c := newSignedIn(t, s, u)
	type view struct {
		Name           string
		LastFetchError *string
		FailingSince   *time.Time
	}
	for _, tc := range []struct {
		sen     *vigil.Sentinel
		message string
	}{{failing, broken}, {recovered, ""}, {unfetched, ""}} {
		path := "/api/v1/sentinels/" + strconv.FormatInt(tc.sen.ID, 10)
		status, body := c.do("GET", path, "")
		var v view
		if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
			t.Fatalf("GET %s: %d %v %s", path, status, err, body)
		}
		switch {
		case tc.message == "" && (v.LastFetchError != nil || v.FailingSince != nil):
			t.Errorf("GET %s (%s): %s, want no lastFetchError nor failingSince", path, tc.sen.Name, body)
		case tc.message != "" && (v.LastFetchError == nil || *v.LastFetchError != tc.message || v.FailingSince == nil || !v.FailingSince.Equal(at)):
			t.Errorf("GET %s (%s): %s, want lastFetchError %q failing since %s", path, tc.sen.Name, body, tc.message, at.Format(time.RFC3339))
		}
		if tc.message == "" {
			continue
		}
		// The dashboard shows the same, on the list and the sentinel's page.
		for _, page := range []string{"/sentinels", "/sentinels/" + strconv.FormatInt(tc.sen.ID, 10)} {
			if status, body := c.do("GET", page, ""); status != 200 || !strings.Contains(html.UnescapeString(body), tc.message) {
				t.Errorf("GET %s: %d, does not say %q", page, status, tc.message)
			}
		}
	}
	status, body := c.do("GET", "/api/v1/sentinels", "")
	var list struct{ Items []view }
	if err := json.Unmarshal([]byte(body), &list); status != 200 || err != nil {
		t.Fatalf("GET /api/v1/sentinels: %d %v %s", status, err, body)
	}
	var with []string
	for _, v := range list.Items {
		if v.LastFetchError != nil && *v.LastFetchError == broken && v.FailingSince != nil {
			with = append(with, v.Name)
		}
	}
	if len(list.Items) != 3 || !slices.Equal(with, []string{"failing"}) || strings.Count(body, `"lastFetchError"`) != 1 {
		t.Errorf("GET /api/v1/sentinels: %s\nwant failing alone with its lastFetchError", body)
	}
}

// TestOpenAPISentinelSchema: the OpenAPI Sentinel schema lists each member
// of the API's sentinel JSON, every field set, and no other.
func TestOpenAPISentinelSchema(t *testing.T) {
	data, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				Sentinel struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"Sentinel"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	full := sentinelView{
		Sentinel: &vigil.Sentinel{ID: 1, OwnerID: 1, Name: "s", Source: "Create Sentinel s", Spec: json.RawMessage(`{}`),
			Status: vigil.SentinelActive, CreatedAt: now, UpdatedAt: now, NextCheck: now, LastCheck: now, FeedGeneration: 1, Importance: 1, TimeZone: "Asia/Tokyo"},
		Feed: "/feeds/x", Lifespan: "active", Checking: true, ScopeNotes: []string{"n"},
		LastFetchError: "fetch http://a.example/: HTTP error status 404", FailingSince: now, Warnings: []string{"w"}, NextDigest: now,
	}
	js, err := json.Marshal(full)
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(js, &members); err != nil {
		t.Fatal(err)
	}
	for m := range members {
		if _, ok := doc.Components.Schemas.Sentinel.Properties[m]; !ok {
			t.Errorf("openapi.json's Sentinel lacks %s, a member of the API's sentinel", m)
		}
	}
	for p := range doc.Components.Schemas.Sentinel.Properties {
		if _, ok := members[p]; !ok {
			t.Errorf("openapi.json's Sentinel has %s, which the API's sentinel has not", p)
		}
	}
}
