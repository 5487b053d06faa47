package web

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestImportanceShown: the importance a check stored on a page is in the
// API's resource (alone and listed) and on its sentinel, and on the
// page's history in the dashboard; a page never estimated says none.
func TestImportanceShown(t *testing.T) {
	e := newReadAsTextEnv(t)
	id := strconv.FormatInt(e.res, 10)
	if page := e.get("/resources/" + id); strings.Contains(page, "Importance") {
		t.Errorf("a page never estimated shows an importance:\n%s", page)
	}
	cs, ok := e.s.Store.(vigil.CheckStore)
	if !ok {
		t.Fatalf("%T keeps no checks", e.s.Store)
	}
	at := time.Now().UTC()
	if err := cs.RecordChecks(context.Background(), []*vigil.CheckRecord{{SentinelID: e.sen.ID, CheckedAt: at, NextCheck: at.Add(time.Hour),
		Importance: []vigil.PageImportance{{ResourceID: e.res, Importance: 0.375}}}}); err != nil {
		t.Fatal(err)
	}
	var one struct {
		Importance *float64 `json:"importance"`
	}
	for _, path := range []string{"/api/v1/resources/" + id, "/api/v1/sentinels/" + strconv.FormatInt(e.sen.ID, 10)} {
		one.Importance = nil
		if err := json.Unmarshal([]byte(e.get(path)), &one); err != nil {
			t.Fatal(err)
		}
		if one.Importance == nil || *one.Importance != 0.375 {
			t.Errorf("GET %s: importance %v, want 0.375", path, one.Importance)
		}
	}
	var list struct {
		Items []struct {
			ID         int64   `json:"id"`
			Importance float64 `json:"importance"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(e.get("/api/v1/resources")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Importance != 0.375 {
		t.Errorf("listed resources %+v, want one of importance 0.375", list.Items)
	}
	// One page watched has a share below 1: the page says where the rest
	// is, or a user watching one page reads its 0.375 as wrong.
	page := e.get("/resources/" + id)
	for _, want := range []string{`<p>Importance: <data value="0.375">0.375</data>`, "the rest is OPIC's virtual page's"} {
		if !strings.Contains(page, want) {
			t.Errorf("history: no %q:\n%s", want, page)
		}
	}
}
