// What `import … from 'waste-operations-sandbox'` gives: the sandbox in-process, and the signing
// helpers of the reference's webhook signature for receivers, and checkReceiver, which tests a
// receiver against the reference's rules (docs/webhook-signatures.md).
export { createSandbox, type Sandbox, type SandboxEvent, type SandboxKey, type SandboxOptions } from './sandbox.js';
export {
  type Payload,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  signatureProblem,
  signPayload,
  type VerifyOptions,
  verifySignature,
} from './webhooks/signature.js';
export {
  type CheckReceiverOptions,
  checkReceiver,
  RECEIVER_CHECKS,
  type ReceiverCheck,
  type ReceiverCheckName,
  type ReceiverReport,
} from './webhooks/check-receiver.js';
