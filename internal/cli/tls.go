package cli

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/internal/config"
)

// tlsFlags are the certificate and key of a bearer-token listener (the
// gateway's TCP listener, the MCP HTTP listener); they override the
// configuration's tls_cert and tls_key.
type tlsFlags struct {
	cert, key string
}

func (t *tlsFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&t.cert, "tls-cert", "", "PEM certificate (chain) for the TCP/HTTP listener; with --tls-key it serves TLS (overrides tls_cert)")
	cmd.Flags().StringVar(&t.key, "tls-key", "", "PEM private key for --tls-cert (overrides tls_key)")
}

// load returns the TLS configuration the flags and cfg name; nil without a
// certificate.
func (t *tlsFlags) load(cfg *config.Config) (*tls.Config, error) {
	if t.cert != "" || t.key != "" {
		if t.cert == "" || t.key == "" {
			return nil, usageError{fmt.Errorf("--tls-cert and --tls-key: give both, or neither")}
		}
		cfg.TLSCert, cfg.TLSKey = t.cert, t.key
	}
	if cfg.TLSCert == "" {
		return nil, nil
	}
	pair, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate %s and key %s: %w", cfg.TLSCert, cfg.TLSKey, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}

// scheme is the URL scheme a listener with c serves.
func scheme(c *tls.Config) string {
	if c != nil {
		return "https"
	}
	return "http"
}

// openListening loads the listener certificate the flags and cfg name,
// then opens the gateway cfg describes: a bad certificate fails before
// any store exists.
func openListening(ctx context.Context, cfg *config.Config, log *slog.Logger, t *tlsFlags) (*system, *tls.Config, error) {
	tlsConfig, err := t.load(cfg)
	if err != nil {
		return nil, nil, err
	}
	sys, err := open(ctx, cfg, log)
	if err != nil {
		return nil, nil, err
	}
	return sys, tlsConfig, nil
}
