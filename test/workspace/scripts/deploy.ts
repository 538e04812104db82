// Deployed with Hardhat Ignition: npx hardhat ignition deploy ignition/modules/Token.ts --network testnet
export {};
