package vigil_test

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestDeliveryUser: the owner a context carries is one above 0; a context
// without one, or with 0 (a notification nobody owns), has none.
func TestDeliveryUser(t *testing.T) {
	bg := context.Background()
	for name, tc := range map[string]struct {
		ctx    context.Context
		want   int64
		wantOK bool
	}{
		"owner":      {vigil.WithDeliveryUser(bg, 7), 7, true},
		"no owner":   {bg, 0, false},
		"owner 0":    {vigil.WithDeliveryUser(bg, 0), 0, false},
		"with an id": {vigil.WithDeliveryID(vigil.WithDeliveryUser(bg, 3), "42"), 3, true},
	} {
		if got, ok := vigil.DeliveryUser(tc.ctx); got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: DeliveryUser = %d, %v; want %d, %v", name, got, ok, tc.want, tc.wantOK)
		}
	}
}
