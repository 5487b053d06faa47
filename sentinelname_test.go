package vigil

import (
	"errors"
	"strings"
	"testing"
)

// TestSameSentinelName: names are one sentinel's when their lower cases
// are equal, as spec.Checker keys them (strings.ToLower), not when they
// fold to one another: 'ſ' (long s) folds to 's' but is its own lower
// case, so the checker tells "ſ" from "s" and so must the store.
func TestSameSentinelName(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Prices", "prices", true},
		{"PRICES", "prices", true},
		{"prices", "price", false},
		{"ſale", "sale", false},
		{"ſale", "SALE", false},
		{"\u212Aelvin", "kelvin", true}, // the Kelvin sign's lower case is k
		{"Ärger", "ärger", true},
	} {
		if got := SameSentinelName(tc.a, tc.b); got != tc.same {
			t.Errorf("SameSentinelName(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
		la, lb := strings.ToLower(tc.a), strings.ToLower(tc.b)
		if want := la == lb; tc.same != want {
			t.Fatalf("case %q %q: the checker's comparison says %v", tc.a, tc.b, want)
		}
	}
}

// TestSentinelNameFree: of an owner's stored sentinels, the one called
// name (SameSentinelName) is named in the ECONFLICT error.
func TestSentinelNameFree(t *testing.T) {
	used := []StoredSentinelName{{ID: 3, OwnerID: 1, Name: "sale"}, {ID: 4, OwnerID: 1, Name: "Prices"}}
	if err := SentinelNameFree(used, "ſale"); err != nil {
		t.Errorf("ſale among sale: %v", err)
	}
	err := SentinelNameFree(used, "prices")
	if ErrorCode(err) != ECONFLICT || !strings.Contains(ErrorMessage(err), "(sentinel 4)") {
		t.Errorf("prices among Prices: %v, want ECONFLICT naming sentinel 4", err)
	}
	var taken *SentinelNameTakenError
	if !errors.As(err, &taken) || *taken != (SentinelNameTakenError{Name: "prices", ID: 4, IDName: "Prices"}) {
		t.Errorf("prices among Prices: %#v, want a SentinelNameTakenError of prices, sentinel 4, Prices", err)
	}
}
