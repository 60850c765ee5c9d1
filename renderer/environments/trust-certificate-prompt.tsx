// Trust on first use: shows the SHA-256 fingerprint of a wss:// server certificate that did not
// verify (or no longer matches its pin) and asks whether to pin it. Only the user's explicit
// "Trust" pins anything; the fingerprint is shown so it can be compared with the server's own.
import type { TestConnectionResult } from '../../shared/ipc';

export type RefusedCertificate = NonNullable<TestConnectionResult['certificate']>;

const FINGERPRINT_COMMAND = 'openssl x509 -noout -fingerprint -sha256 -in CERT.pem';

export function TrustCertificatePrompt({
  certificate,
  onTrust,
  onReject,
}: {
  certificate: RefusedCertificate;
  onTrust: (fingerprint: string) => void;
  onReject: () => void;
}) {
  const changed = certificate.problem === 'changed';
  return (
    <section role="alertdialog" aria-labelledby="trust-title" className="trust-certificate">
      <h3 id="trust-title">
        {changed ? 'The server certificate has changed' : 'The server certificate is not trusted'}
      </h3>
      <p>
        {changed
          ? 'The server presented a different certificate than the one pinned for this environment. ' +
            'Someone may be intercepting the connection. Trust the new one only if you know the server ' +
            'got a new certificate.'
          : 'No certificate authority this computer trusts vouches for it (it may be self-signed). ' +
            'Trust it only if its fingerprint matches the one on the server:'}
      </p>
      <dl className="fingerprints">
        <dt>{changed ? 'Presented now (SHA-256)' : 'Fingerprint (SHA-256)'}</dt>
        <dd className="mono" aria-label="Presented fingerprint">
          {certificate.fingerprint}
        </dd>
        {certificate.pinned !== null && (
          <>
            <dt>Pinned (SHA-256)</dt>
            <dd className="mono" aria-label="Pinned fingerprint">
              {certificate.pinned}
            </dd>
          </>
        )}
      </dl>
      <p className="hint">
        On the server: <code>{FINGERPRINT_COMMAND}</code>
      </p>
      <div className="modal-actions">
        <button type="button" onClick={onReject}>
          Don’t trust
        </button>
        <button
          type="button"
          className={changed ? 'danger' : 'primary'}
          onClick={() => onTrust(certificate.fingerprint)}
        >
          {changed ? 'Trust the new certificate' : 'Trust this certificate'}
        </button>
      </div>
    </section>
  );
}
