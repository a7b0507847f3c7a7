import { providePaymentDevnetTemplateRoot } from './payment-devnet-template.ts'

/** Once per run: the folder the first payment devnet of the run deploys its template into. */
export default providePaymentDevnetTemplateRoot
