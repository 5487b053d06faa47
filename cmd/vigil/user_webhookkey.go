package main

import (
	"context"
	"fmt"

	"github.com/vigil-web/vigil/internal/notify/webhook"
)

func init() {
	register(&command{name: "user webhook-key", summary: "print the key that checks the signatures of a user's webhook deliveries", run: runUserWebhookKey})
}

// runUserWebhookKey prints a user's webhook key (webhook.UserKey), for an
// operator who hands it over: derived from the server's webhook key as
// the daemon derives it to sign, never stored. The server key is read as
// vigil sentinel feed reads the feed key (keyring.read: the data
// directory's file on SQLite, the store's key on PostgreSQL), unless
// --webhook-secret gives the one a daemon started with it signs with;
// none is made here, as a key no daemon signs with would make keys that
// check nothing.
func runUserWebhookKey(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "user webhook-key", "EMAIL", "Webhook-key prints the key of the user with EMAIL that checks the signatures\n"+
		"of their sentinels' webhook deliveries: the header X-Vigil-User-Signature-256,\n"+
		"\"sha256=\" and the hex HMAC-SHA256 under this key of the X-Vigil-Timestamp,\n"+
		"X-Vigil-Delivery and X-Vigil-Event headers, each followed by a full stop, then\n"+
		"the body. The user sees it on the dashboard's API tokens page too. It is\n"+
		"derived from the server's webhook key, whose X-Vigil-Signature-256 every\n"+
		"delivery keeps carrying, so vigil keys rotate webhook changes every user's.\n"+
		"Give --webhook-secret (or $VIGIL_WEBHOOK_SECRET) when vigil serve is given it.")
	sf := addStoreFlags(fs, env)
	flagKey := secretString(fs, "webhook-secret", env.getenv("VIGIL_WEBHOOK_SECRET"), "the `key` vigil serve signs webhooks with when it is given --webhook-secret; on the command line it shows in the process list (ps): give it in $VIGIL_WEBHOOK_SECRET instead (default $VIGIL_WEBHOOK_SECRET, else the data directory's webhook-secret file; on PostgreSQL the store's key)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 1); err != nil {
		return exitError, err
	}
	email, err := knownEmail(fs.Arg(0))
	if err != nil {
		return exitError, err
	}
	if err := checkWebhookSecretFlag(*flagKey); err != nil {
		return exitError, err
	}
	st, u, err := openUserStore(ctx, sf, email, false)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	serverKey := []byte(*flagKey)
	if len(serverKey) == 0 {
		if serverKey, err = newKeyring(st, *sf.data, *sf.postgres).read(ctx, webhookSecretFile); err != nil {
			return exitError, err
		}
	}
	fmt.Fprintf(env.stdout, "%s\n", webhook.UserKey(serverKey, u.ID))
	return exitOK, nil
}
