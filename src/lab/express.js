'use strict';
// codecbench lab: Express with the compression middleware, a route per setting, each
// body sent in one res.send as res.json sends one. The plan (port, bodies' directory,
// settings, the modules' directory) is JSON, read as data.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const zlib = require('node:zlib');

const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

// Modules come from the directory the lab was given and from nowhere else: Node would
// otherwise look in node_modules of every parent of this file (another user's
// /tmp/node_modules among them) and of every module's. Each lookup is kept inside it.
const modules = fs.realpathSync(plan.modules);
const inside = (dir) => dir === modules || dir.startsWith(modules + path.sep);
const lookup = Module._nodeModulePaths;
Module._nodeModulePaths = (from) => lookup(from).filter(inside);
const express = require(path.join(modules, 'express'));
const compression = require(path.join(modules, 'compression'));

const bodies = new Map();
for (const name of fs.readdirSync(plan.www)) {
  bodies.set(name, fs.readFileSync(path.join(plan.www, name)));
}

const app = express();
app.set('etag', false);
app.set('x-powered-by', false);

function send(req, res) {
  const body = bodies.get(req.params.file);
  if (body === undefined) {
    res.sendStatus(404);
    return;
  }
  res.type('application/json').send(body);
}

for (const endpoint of plan.endpoints) {
  const router = express.Router();
  if (endpoint.coding === 'br') {
    const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: endpoint.level };
    router.use(compression({ threshold: 0, brotli: { params } }));
  } else if (endpoint.coding === 'gzip') {
    router.use(compression({ threshold: 0, level: endpoint.level }));
  }
  router.get('/:file', send);
  app.use(endpoint.prefix, router);
}
app.listen(plan.port, '127.0.0.1');
