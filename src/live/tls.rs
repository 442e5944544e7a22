//! TLS for `probe`: rustls on the ring provider with Mozilla's roots (webpki-roots), so
//! no system certificate store is read; or, with `--insecure`, any certificate.

use std::sync::Arc;

use anyhow::{Context as _, Result};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{ring, CryptoProvider};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

/// A client configuration for HTTP/1.1 over TLS; `insecure` accepts any certificate.
pub(super) fn client_config(insecure: bool) -> Result<Arc<rustls::ClientConfig>> {
    let provider = Arc::new(ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .context("TLS set-up")?;
    let mut config = if insecure {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
            .with_no_client_auth()
    } else {
        let roots =
            rustls::RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        builder.with_root_certificates(roots).with_no_client_auth()
    };
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// The TLS handshake with `host` over `stream`; a failure says what went wrong: a
/// certificate (where `--insecure` helps), or a peer that does not speak TLS.
pub(super) async fn connect<S: AsyncRead + AsyncWrite + Unpin>(
    config: &Arc<rustls::ClientConfig>,
    host: &str,
    stream: S,
) -> Result<TlsStream<S>> {
    let name = ServerName::try_from(host.to_string())
        .with_context(|| format!("'{host}' is not a name TLS can check"))?;
    TlsConnector::from(config.clone())
        .connect(name, stream)
        .await
        .map_err(|error| {
            let hint = match error
                .get_ref()
                .and_then(|e| e.downcast_ref::<rustls::Error>())
            {
                Some(rustls::Error::InvalidCertificate(_)) => {
                    " (a self-signed certificate? --insecure accepts it)"
                }
                Some(rustls::Error::InvalidMessage(_)) => {
                    " (the server did not answer in TLS: is it an http:// URL?)"
                }
                _ => "",
            };
            anyhow::anyhow!("TLS with {host} failed{hint}: {error}")
        })
}

/// `--insecure`: every certificate is accepted; signatures are still checked, so the
/// connection is encrypted, just not authenticated.
#[derive(Debug)]
struct AnyCertificate(Arc<CryptoProvider>);

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}
