package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestSentinelKeepsComments: a sentinel written with comments, in the
// editor or the API, keeps them, laid out in the canonical form (as
// vigil sentinel fmt does): the stored source was the printed sentinel
// alone, so an edit in the dashboard lost the notes written in it.
func TestSentinelKeepsComments(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	src := "# Why: the kettle's price.\nCreate Sentinel kettle\nUsing http://a.example/\nMonitor any change # any at all\nFetch 1 hour\n"
	status, body := c.do("POST", "/sentinels", url.Values{"source": {src}}.Encode())
	if status != http.StatusSeeOther {
		t.Fatalf("create in the editor: %d\n%s", status, body)
	}
	js, _ := json.Marshal(map[string]string{"source": strings.Replace(src, "Sentinel kettle", "Sentinel teapot", 1)})
	if status, body := c.do("POST", "/api/v1/sentinels", string(js)); status != http.StatusCreated {
		t.Fatalf("create with the API: %d\n%s", status, body)
	}
	sens, _, err := s.Store.FindSentinels(context.Background(), vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(sens) != 2 {
		t.Fatalf("%d sentinels", len(sens))
	}
	for _, sen := range sens {
		for _, want := range []string{"# Why: the kettle's price.", "# any at all"} {
			if !strings.Contains(sen.Source, want) {
				t.Errorf("sentinel %s: the source lost %q:\n%s", sen.Name, want, sen.Source)
			}
		}
		if _, page := c.do("GET", "/sentinels/"+strconv.FormatInt(sen.ID, 10), ""); !strings.Contains(page, "# Why: the kettle&#39;s price.") {
			t.Errorf("sentinel %s: the editor does not show the comment", sen.Name)
		}
	}
}

// TestCheckCanonicalKeepsComments: the canonical form the live check
// answers is the source the sentinel would be saved with, comments
// included, as vigil sentinel fmt prints it: it was the printed sentinel
// alone, so a client that replaced its text with it lost the notes.
func TestCheckCanonicalKeepsComments(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	tests := map[string]struct{ src, want string }{
		"none":          {"Create Sentinel a Using http://a.example/\nMonitor any change", "Create Sentinel a Using http://a.example/\n\tMonitor any change\n"},
		"above":         {"# the kettle\nCreate Sentinel a Using http://a.example/\nMonitor any change", "# the kettle\nCreate Sentinel a Using http://a.example/\n\tMonitor any change\n"},
		"between":       {"Create Sentinel a Using http://a.example/\n# note\nMonitor any change", "Create Sentinel a Using http://a.example/\n\t# note\n\tMonitor any change\n"},
		"end of clause": {"Create Sentinel a Using http://a.example/\nMonitor any change # any at all", "Create Sentinel a Using http://a.example/\n\tMonitor any change # any at all\n"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			js, _ := json.Marshal(map[string]string{"source": tt.src})
			status, body := c.do("POST", "/api/v1/sentinels/check", string(js))
			if status != http.StatusOK {
				t.Fatalf("check: %d\n%s", status, body)
			}
			var res CheckResult
			if err := json.Unmarshal([]byte(body), &res); err != nil {
				t.Fatal(err)
			}
			if res.Canonical != tt.want {
				t.Errorf("canonical\n%q\nwant\n%q", res.Canonical, tt.want)
			}
		})
	}
}
