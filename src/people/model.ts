// The user-ID helpers live in src/common/model/users.ts (shared with the result
// views, below the features); re-exported here for the people feature's readers.
export * from '../common/model/users';
