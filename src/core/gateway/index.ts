export { startGateway } from './gateway';
export type { Gateway, GatewayAgent, GatewayCall, GatewayClientInfo, GatewayEndpoint, GatewayOptions, GatewayPolicy, SessionLimits } from './types';
