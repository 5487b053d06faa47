package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/postgres"
)

// TestOpenErrorsHidePassword: Open's errors for a DSN that does not parse
// or whose server cannot be reached do not show the DSN's password.
func TestOpenErrorsHidePassword(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, dsn := range []string{
		"postgres://user:s3cret@127.0.0.1:x/db",
		"postgres://user:s3cret@127.0.0.1:1/db?connect_timeout=2",
		"host=127.0.0.1 port=x user=user password=s3cret",
	} {
		db, err := postgres.Open(ctx, dsn)
		if err == nil {
			db.Close()
			t.Fatalf("Open(%s): no error", dsn)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open: %v shows the password", err)
		}
	}
}
