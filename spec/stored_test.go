package spec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoredMonitorLoadsUnderLaterRules: a checked sentinel the previous
// release stored (testdata/stored, the JSON its Checked.MarshalJSON
// wrote) with a Monitor expression a later rule refuses (a NOT that
// narrows nothing, operands that differ only in case, a NOT subsumed
// once case is ignored, words of one list that differ only in case, more
// than MaxChangeTypes change types) still decodes from the store, with
// the same expression, which package intent evaluates as it did; and a stored
// sentinel checked again (RecheckStored) is not refused for it, but
// warned. New input is held to the rules.
func TestStoredMonitorLoadsUnderLaterRules(t *testing.T) {
	for file, monitor := range map[string]string{
		"not_alone.json":             "NOT keywords {x}",
		"not_not.json":               "NOT NOT all links",
		"or_not.json":                "all links OR NOT all images",
		"case_distinct.json":         "keywords {Price} OR keywords {price}",
		"case_subsumed.json":         "keywords {sale} AND NOT keywords {Sale, offer}",
		"case_except.json":           "all words except {The} OR all words except {the}",
		"case_except_list.json":      "all words except {The, the}",
		"case_keywords_list.json":    "keywords {Sale, sale}",
		"too_many_change_types.json": orChain(MaxChangeTypes + 1),
	} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "stored", file))
			if err != nil {
				t.Fatal(err)
			}
			var c Checked
			if err := json.Unmarshal(data, &c); err != nil {
				t.Fatalf("a stored sentinel does not load: %v", err)
			}
			if c.Sentinel == nil || c.Sentinel.Monitor == nil || Print(c.Sentinel.Monitor.X) != monitor {
				t.Fatalf("loaded %v, want Monitor %s", c.Sentinel, monitor)
			}
			if len(c.URLs) != 1 || c.URLs[0] != "http://a.example/page" {
				t.Errorf("loaded urls %q", c.URLs)
			}
			if _, err := DecodeSentinel(data); err == nil {
				t.Errorf("DecodeSentinel accepts it: new input must follow the rules")
			}
			ch, err := NewChecker(date(2026, 11, 2, 0, 0)).RecheckStored("s", c.Sentinel)
			if err != nil {
				t.Fatalf("checked again, it is refused: %v", err)
			}
			if len(ch.Warnings) == 0 {
				t.Errorf("checked again, it has no warning")
			}
		})
	}
}

// TestStoredFragmentOperandsLoad: a sentinel stored before URLs that
// differ only by their fragments were one operand (testdata/stored/
// fragment_distinct.json: "https://x.example/ AND
// https://x.example/#frag") loads with its URLs as stored, and checked
// again is warned, not refused; new input is refused.
func TestStoredFragmentOperandsLoad(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "stored", "fragment_distinct.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c Checked
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("a stored sentinel does not load: %v", err)
	}
	if got := Print(c.Sentinel.Target); got != "https://x.example/ AND https://x.example/#frag" {
		t.Fatalf("loaded Using %s", got)
	}
	if len(c.URLs) != 2 || c.URLs[1] != "https://x.example/#frag" {
		t.Errorf("loaded urls %q", c.URLs)
	}
	if _, err := DecodeSentinel(data); err == nil || !strings.Contains(err.Error(), "a fragment is not sent") {
		t.Errorf("DecodeSentinel: %v, want the fragment refused", err)
	}
	ch, err := NewChecker(date(2026, 11, 2, 0, 0)).RecheckStored("s", c.Sentinel)
	if err != nil {
		t.Fatalf("checked again, it is refused: %v", err)
	}
	if len(ch.Warnings) != 1 || !strings.Contains(ch.Warnings[0].Error(), "https://x.example/#frag is https://x.example/: a fragment is not sent") {
		t.Errorf("checked again, warnings %v", ch.Warnings)
	}
}

// TestStoredWebhookSpellingsLoad: a sentinel stored before two spellings
// of one webhook URL were one contact (testdata/stored/
// webhook_spellings.json: "https://hooks.example/x" and
// "https://hooks.example/x#copy") loads with both, and checked again is
// warned, not refused; new input is refused.
func TestStoredWebhookSpellingsLoad(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "stored", "webhook_spellings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c Checked
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("a stored sentinel does not load: %v", err)
	}
	if _, err := DecodeSentinel(data); err == nil || !strings.Contains(err.Error(), "duplicate contact https://hooks.example/x#copy") {
		t.Errorf("DecodeSentinel: %v, want the second spelling refused", err)
	}
	ch, err := NewChecker(date(2026, 11, 2, 0, 0)).RecheckStored("s", c.Sentinel)
	if err != nil {
		t.Fatalf("checked again, it is refused: %v", err)
	}
	if len(ch.Warnings) != 1 || !strings.Contains(ch.Warnings[0].Error(), "duplicate contact https://hooks.example/x#copy") {
		t.Errorf("checked again, warnings %v", ch.Warnings)
	}
}
