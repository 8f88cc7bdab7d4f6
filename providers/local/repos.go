package local

import (
	"context"
	"fmt"

	"github.com/forgetools/forgetools/providers/discovery"
)

// Repositories lists the local forge's repositories by name. The gateway
// owns the local forge, so its permission on each is admin.
func (f *Forge) Repositories(ctx context.Context, each func(discovery.Repository) error) error {
	rows, err := f.db.QueryContext(ctx, `SELECT name FROM local_repos ORDER BY name`)
	if err != nil {
		return fmt.Errorf("local forge: list repositories: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return fmt.Errorf("local forge: list repositories: %w", err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("local forge: list repositories: %w", err)
	}
	rows.Close() // before calling back: each may run queries of its own
	for _, n := range names {
		if err := each(discovery.Repository{Repo: n, Permission: "admin"}); err != nil {
			return err
		}
	}
	return nil
}
