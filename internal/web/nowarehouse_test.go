package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestNoWarehouse: a server built without a warehouse (Server.Warehouse
// nil) answers every route that reads versions with a clear error, the
// API's JSON error and the dashboard's error page, status 500, naming
// what is missing, where GET /api/v1/changes and the others panicked on
// the nil warehouse and the client saw its connection dropped.
func TestNoWarehouse(t *testing.T) {
	ctx := context.Background()
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	sen := createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var vs []*vigil.Version
	for i, body := range []string{"<p>one</p>", "<p>two</p>"} {
		v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/p", FetchedAt: at.Add(time.Duration(i) * time.Hour),
			Status: 200, ContentType: "text/html", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	c := &vigil.Change{SentinelID: sen.ID, ResourceID: vs[0].ResourceID, FromVersion: vs[0].ID, ToVersion: vs[1].ID,
		DetectedAt: at.Add(time.Hour), Summary: "any change: 1 text changed", Records: []byte("[]")}
	if err := s.Store.CreateChange(ctx, c); err != nil {
		t.Fatal(err)
	}
	s.Warehouse = nil
	cl := newSignedIn(t, s, u)
	res, from, to := vs[0].ResourceID, vs[0].ID, vs[1].ID
	diff := fmt.Sprintf("from=%d&to=%d", from, to)
	for _, path := range []string{
		"/api/v1/changes",
		fmt.Sprintf("/api/v1/changes/%d", c.ID),
		fmt.Sprintf("/api/v1/sentinels/%d/changes", sen.ID),
		fmt.Sprintf("/api/v1/resources/%d/versions", res),
		fmt.Sprintf("/api/v1/resources/%d/diff?%s", res, diff),
		fmt.Sprintf("/api/v1/versions/%d", to),
		fmt.Sprintf("/api/v1/versions/%d/body", to),
		fmt.Sprintf("/api/v1/versions/%d/text", to),
		fmt.Sprintf("/resources/%d", res),
		fmt.Sprintf("/resources/%d/diff?%s", res, diff),
		fmt.Sprintf("/resources/%d/diff?%s&view=records", res, diff),
		fmt.Sprintf("/resources/%d/diff/frame?%s&view=inline", res, diff),
	} {
		status, body := cl.do("GET", path, "")
		if status != http.StatusInternalServerError || !strings.Contains(body, "keeps no versions") {
			t.Errorf("GET %s: %d, want 500 saying it keeps no versions:\n%s", path, status, body)
			continue
		}
		if strings.HasPrefix(path, "/api/") {
			var e errorBody
			if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code != vigil.EINTERNAL {
				t.Errorf("GET %s: not the JSON error of EINTERNAL (%v): %s", path, err, body)
			}
		}
	}
}
