package vigil_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// TestSentinelNameTakenMessage: a store's refusal of a sentinel name
// another of the owner's sentinels has says so in the one wording of a
// name taken wherever it is found (spec.NameTakenMessage: the check, the
// editor, the API, the command line), naming that sentinel as far as it
// is known and cutting a long name as every diagnostic does. Before, the
// store said "sentinel name prices is already used (sentinel 4)".
func TestSentinelNameTakenMessage(t *testing.T) {
	long, longer := strings.Repeat("n", 200), strings.Repeat("N", 200)
	for _, tc := range []vigil.SentinelNameTakenError{
		{Name: "prices", ID: 4, IDName: "Prices"},
		{Name: "prices", IDName: "Prices"},
		{Name: "prices", ID: 4},
		{Name: long, ID: 1, IDName: longer},
		{Name: "é" + long, ID: 1, IDName: "\xff" + longer}, // cut between runes
	} {
		err := error(&tc)
		want := spec.NameTakenMessage(tc.Name, spec.NameHolder{Name: tc.IDName, ID: tc.ID})
		if got := vigil.ErrorMessage(err); got != want {
			t.Errorf("%+v: message\n%q, want\n%q", tc, got, want)
		}
		var e *vigil.Error
		if !errors.As(err, &e) || e.Code != vigil.ECONFLICT {
			t.Errorf("%+v: %v, not an ECONFLICT error", tc, err)
		}
	}
}
