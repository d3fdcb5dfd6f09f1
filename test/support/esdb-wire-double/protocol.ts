// The service definitions and message classes the client ships
// (@eventstore/db-client/generated): the double speaks exactly the client's
// protocol version. They are CommonJS modules, hence the default imports.
import { createRequire } from 'node:module';
import streamsGrpc from '@eventstore/db-client/generated/streams_grpc_pb.js';
import streamsPb from '@eventstore/db-client/generated/streams_pb.js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import statusPb from '@eventstore/db-client/generated/status_pb.js';
import codePb from '@eventstore/db-client/generated/code_pb.js';
import serverFeaturesGrpc from '@eventstore/db-client/generated/serverfeatures_grpc_pb.js';
import serverFeaturesPb from '@eventstore/db-client/generated/serverfeatures_pb.js';
import gossipGrpc from '@eventstore/db-client/generated/gossip_grpc_pb.js';
import type { Any } from 'google-protobuf/google/protobuf/any_pb.js';
import type { Empty as GoogleEmpty } from 'google-protobuf/google/protobuf/empty_pb.js';

// google-protobuf is the client's own dependency: load the very copy it uses.
const requireFromClient = createRequire(createRequire(import.meta.url).resolve('@eventstore/db-client'));
const anyPb = requireFromClient('google-protobuf/google/protobuf/any_pb.js') as { Any: new () => Any };
const emptyPb = requireFromClient('google-protobuf/google/protobuf/empty_pb.js') as { Empty: new () => GoogleEmpty };

export const { StreamsService } = streamsGrpc;
export const { ServerFeaturesService } = serverFeaturesGrpc;
export const { GossipService } = gossipGrpc;
export const { ReadReq, ReadResp, AppendReq, AppendResp, BatchAppendReq, BatchAppendResp } = streamsPb;
export const { Empty, UUID, StreamIdentifier, AllStreamPosition, WrongExpectedVersion } = sharedPb;
export const { Status } = statusPb;
export const { Code } = codePb;
export const { SupportedMethods, SupportedMethod } = serverFeaturesPb;
export const GoogleProtobufAny = anyPb.Any;
export const GoogleProtobufEmpty = emptyPb.Empty;
