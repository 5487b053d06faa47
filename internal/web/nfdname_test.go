package web

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestNFDName: a sentinel name written decomposed ("cafe" and a combining
// acute accent, as macOS keyboards write café) was refused; it is the
// name café: an edit of café that writes its name so is no rename (one
// that another sentinel uses is saved), a sentinel can use it written so,
// and a second sentinel of that name is refused as not unique.
func TestNFDName(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	post := func(src string) (int, string) {
		t.Helper()
		b, _ := json.Marshal(map[string]string{"source": src})
		return c.do("POST", "/api/v1/sentinels", string(b))
	}
	if status, body := post("Create Sentinel caf\u00e9 Using http://a.example/ Fetch 1 hour"); status != 201 {
		t.Fatalf("create café: %d %s", status, body)
	}
	if status, body := post("Create Sentinel uses Using cafe\u0301 Monitor keywords {x}"); status != 201 {
		t.Fatalf("create uses, Using café decomposed: %d %s", status, body)
	}
	// The name is marked whole in the source, though it is reported
	// composed: bytes 16 to 22, not the one letter c.
	if status, body := post("Create Sentinel cafe\u0301 Using http://b.example/ Fetch 1 hour"); status != 409 || !strings.Contains(body, "sentinel name caf\u00e9 is taken") || !strings.Contains(body, `"end": 22,`) {
		t.Errorf("a second café, decomposed: %d %s; want 409, taken, marked to byte 22", status, body)
	}
	all, _, err := s.Store.FindSentinels(context.Background(), vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil || len(all) != 2 {
		t.Fatalf("sentinels: %v %v", all, err)
	}
	b, _ := json.Marshal(map[string]string{"source": "Create Sentinel cafe\u0301 Using http://a.example/ Fetch 2 hours"})
	path := "/api/v1/sentinels/" + strconv.FormatInt(all[0].ID, 10)
	if status, body := c.do("PUT", path, string(b)); status != 200 || !strings.Contains(body, "\"name\": \"caf\u00e9\"") {
		t.Errorf("PUT %s, café decomposed: %d %s; want 200 and the name composed", path, status, body)
	}
}
