package spec

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// TestLongSNames: "best" and "beſt" (a long s) are two sentinels' names,
// as the known map keys them (their lower case) and
// vigil.SameSentinelName says, not one as strings.EqualFold takes them. A
// sentinel beſt that uses best, or waits for it (itself or through
// another), is not refused as referring to itself or as a cycle; one that
// uses both references both, and UsedBy names each user of best and of
// beſt, not of the other.
func TestLongSNames(t *testing.T) {
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	c := NewChecker(now)
	for _, src := range []string{
		"Create Sentinel best Using http://a.example From Now + 1 day",
		"Create Sentinel x Using http://x.example From Now To end(best) + 1 day",
	} {
		ch, err := c.Check(mustParse(t, src).Sentinels[0])
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		c.Add(&Stored{Checked: ch})
	}
	for _, src := range []string{
		"Create Sentinel beſt Using best Monitor all links",
		"Create Sentinel beſt Using http://b.example From start(best)",
		"Create Sentinel beſt Using http://b.example From end(x)",
	} {
		if _, err := c.Check(mustParse(t, src).Sentinels[0]); err != nil {
			t.Errorf("%s: %v; want no error", src, err)
		}
	}

	both := mustParse(t, "Create Sentinel a Using best AND beſt").Sentinels[0]
	if got, want := References(both), []string{"best", "beſt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("References(%s) = %q, want %q", "a Using best AND beſt", got, want)
	}

	var specs [][]byte
	for _, src := range []string{
		"Create Sentinel beſt Using best Monitor all links",
		"Create Sentinel u Using beſt Monitor all links",
	} {
		data, err := json.Marshal(&Checked{Sentinel: mustParse(t, src).Sentinels[0]})
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, data)
	}
	for name, want := range map[string][]string{"best": {"beſt"}, "beſt": {"u"}} {
		if got := UsedBy(name, specs); !reflect.DeepEqual(got, want) {
			t.Errorf("UsedBy(%s) = %q, want %q", name, got, want)
		}
	}
}
