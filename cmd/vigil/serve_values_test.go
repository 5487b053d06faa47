package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// camerasPage is a shop's listing, a row for each camera and its price.
func camerasPage(rows ...[2]string) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>Cameras</title></head><body><h1>Cameras</h1><table>`)
	b.WriteString(`<tr><th>Camera</th><th>Price</th></tr>`)
	for _, r := range rows {
		fmt.Fprintf(&b, `<tr><td>%s</td><td class="price">%s</td></tr>`, r[0], r[1])
	}
	b.WriteString(`</table></body></html>`)
	return b.String()
}

// TestServeValuesOfAListing runs the README's sentinel, value In css
// ".price" decreases AND NOT phrase {"sold out"}, on a listing served on
// loopback: the price of the second camera is cut (and a camera added),
// and the stored change, the webhook's records, the mail and the feed
// name that camera, its old price and its new one.
func TestServeValuesOfAListing(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	st := newSite(t)
	st.set("/cameras", camerasPage([2]string{"Canon EOS R8", "$1,999"}, [2]string{"Nikon Z5", "$2,299"}))
	box, smtpPort := startSMTP(t)
	const secret = "values-secret-of-thirty-two-chars!"
	hk := startHooks(t, secret)
	data := t.TempDir()
	out := addSentinels(t, data, fmt.Sprintf(`Create Sentinel prices Using %s/cameras
Monitor value In css ".price" decreases AND NOT phrase {"sold out"}
Fetch 1 second
Notify By email shopper@example.test, webhook %s/prices
Every immediate
`, st.srv.URL, hk.srv.URL))
	feed := addedFeed(t, out)
	d := startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--max-interval", "2s", "--initial-interval", "1s",
		"--host-delay", "0", "--poll", "50ms", "--webhook-secret", secret,
		"--smtp-host", "127.0.0.1", "--smtp-port", strconv.Itoa(smtpPort), "--smtp-tls", "none", "--smtp-from", "vigil@example.test")
	db := openData(t, data)
	url := st.srv.URL + "/cameras"
	waitFor(t, 30*time.Second, "the first version", func() bool { return versionCount(t, db, url) == 1 })

	st.set("/cameras", camerasPage([2]string{"Canon EOS R8", "$1,999"}, [2]string{"Nikon Z5", "$2,099"}, [2]string{"Sony A7 IV", "$2,499"}))
	waitFor(t, 30*time.Second, "the webhook", func() bool { return len(hk.of("prices")) == 1 })

	// The stored change: one record, the Nikon's price.
	changes, _, err := db.FindChanges(context.Background(), vigil.ChangeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 {
		t.Fatalf("%d changes stored, want 1", len(changes))
	}
	var recs []intent.Change
	if err := json.Unmarshal(changes[0].Records, &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("records %s, want the Nikon's price alone", changes[0].Records)
	}
	r := recs[0]
	if r.Kind != intent.KindValue || r.Op != intent.Update || r.Old != "$2,299" || r.New != "$2,099" || r.Value == nil ||
		r.Value.Item != "Nikon Z5" || *r.Value.Old != 2299 || *r.Value.New != 2099 || r.Value.Delta != -200 || r.Value.Direction != "decreased" {
		t.Errorf("record %s", changes[0].Records)
	}

	// The webhook carries the same records.
	call := hk.of("prices")[0]
	if len(call.msg.Changes) != 1 || !strings.Contains(string(call.msg.Changes[0].Change.Records), `"item":"Nikon Z5"`) {
		t.Errorf("webhook: %s", call.raw)
	}
	// The mail and the feed say it in words.
	const line = "value decreased by 200 in Nikon Z5"
	waitFor(t, 30*time.Second, "the mail", func() bool { return len(box.matching("Subject: [Vigil] prices")) == 1 })
	if mail := box.matching("Subject: [Vigil] prices")[0]; !strings.Contains(mail, "~ "+line+": $2,299 -> $2,099") {
		t.Errorf("mail lacks the Nikon's line:\n%s", mail)
	}
	resp, err := http.Get("http://" + d.addr + feed)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), line) {
		t.Errorf("feed %d lacks %q:\n%s", resp.StatusCode, line, body)
	}
	d.stop(t)
}
