package sqlite

import (
	"context"
	"fmt"

	"github.com/vigil-web/vigil"
)

// rekeyQueryPercent is the Go step of 0123_query_percent.sql: each
// resource whose URL holds a percent-encoding (the only URLs the
// normalisation of a query's percent-encoding changes) is stored under
// its present canonical form (vigil.CanonicalURL), unless another
// resource has that form already (the page stored twice, under two
// spellings: the one stored under the canonical form goes on, the other
// keeps its URL and its history); and so is each version's final URL.
func rekeyQueryPercent(ctx context.Context, tx execer) error {
	for _, table := range []string{"resources", "versions"} {
		rekey, err := percentURLs(ctx, tx, table)
		if err != nil {
			return err
		}
		for _, r := range rekey {
			if table == "resources" {
				taken, err := urlTaken(ctx, tx, r.url)
				if err != nil {
					return fmt.Errorf("rekey resource %d: %w", r.id, err)
				}
				if taken {
					continue
				}
			}
			if _, err := tx.ExecContext(ctx, "UPDATE "+table+" SET url = ? WHERE id = ?", r.url, r.id); err != nil {
				return fmt.Errorf("rekey %s %d: %w", table, r.id, err)
			}
		}
	}
	return nil
}

// rekeyed is a row of a table whose URL is not in its canonical form, and
// that form.
type rekeyed struct {
	id  int64
	url string
}

// percentURLs returns the rows of table (resources or versions) whose URL
// holds a percent-encoding and is not canonical, in id order, each with
// its canonical form. A URL that no longer reads as one is left as it
// is.
func percentURLs(ctx context.Context, tx execer, table string) ([]rekeyed, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, url FROM `+table+` WHERE url LIKE '%!%%' ESCAPE '!' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read the URLs of %s: %w", table, err)
	}
	defer rows.Close()
	var out []rekeyed
	for rows.Next() {
		var r rekeyed
		if err := rows.Scan(&r.id, &r.url); err != nil {
			return nil, fmt.Errorf("read the URLs of %s: %w", table, err)
		}
		if c, err := vigil.CanonicalURL(r.url); err == nil && c != r.url {
			out = append(out, rekeyed{id: r.id, url: c})
		}
	}
	return out, rows.Err()
}

// urlTaken reports whether a resource has url.
func urlTaken(ctx context.Context, tx execer, url string) (bool, error) {
	rows, err := tx.QueryContext(ctx, "SELECT 1 FROM resources WHERE url = ?", url)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	return rows.Next(), rows.Err()
}
