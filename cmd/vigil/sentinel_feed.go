package main

import (
	"context"
	"fmt"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify/feed"
)

func init() {
	register(&command{name: "sentinel feed", summary: "print the feed paths of sentinels; --rotate replaces them, revoking the old", run: runSentinelFeed})
}

// runSentinelFeed prints the path of each named sentinel's Atom and RSS
// feeds on the server, after giving them new ones with --rotate: the
// links handed out before stop working (404), as the dashboard's "Replace
// feed link" does.
func runSentinelFeed(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "sentinel feed", "ID|NAME...", "Feed prints the paths of the sentinels' Atom and RSS feeds on the server\n"+
		"(append them to its public URL). With --rotate it first gives each sentinel\n"+
		"a new feed path: the old one, wherever it was handed out, stops working.")
	sf := addStoreFlags(fs, env)
	owner := statedString(fs, "owner", ownerDefault(env), "the `owner` whose sentinels NAME names (default $VIGIL_OWNER or "+defaultOwner+")")
	rotate := fs.Bool("rotate", false, "replace the feed paths, revoking the old ones")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError, errUsageShown
	}
	open := openExistingStore
	if *rotate {
		open = openStoreToWrite
	}
	st, err := open(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	secret, err := newKeyring(st, *sf.data, *sf.postgres).read(ctx, secretFile)
	if err != nil {
		return exitError, err
	}
	all, ownerID, err := sentinelsAndOwner(ctx, st, *owner)
	if err != nil {
		return exitError, err
	}
	code = exitOK
	for _, arg := range fs.Args() {
		s, missing := findSentinel(ctx, st, all, ownerID, *owner, arg)
		if s == nil {
			fmt.Fprintf(env.stderr, "vigil sentinel feed: %s\n", missing)
			code = exitChanged
			continue
		}
		if *rotate {
			if s.FeedGeneration, err = st.RotateSentinelFeed(ctx, s.ID); err != nil {
				fmt.Fprintf(env.stderr, "vigil sentinel feed: %s: %v\n", arg, vigil.ErrorMessage(err))
				code = exitChanged
				continue
			}
		}
		fmt.Fprintf(env.stdout, "sentinel %d %s atom %s rss %s\n", s.ID, s.Name, feed.Path(secret, s, "atom"), feed.Path(secret, s, "rss"))
	}
	return code, nil
}
