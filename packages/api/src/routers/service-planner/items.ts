import { z } from 'zod';
import { restTag } from '../../rest-meta.js';
import {
  createItemSchema,
  itemIdSchema,
  itemSchema,
  itemTypeFieldsSchema,
  itemTypeIdSchema,
  itemTypeSchema,
  okIdSchema,
  reorderItemsSchema,
  updateItemSchema,
  updateItemTypeSchema,
} from '../../schemas/service-planner.js';
import {
  createItemType,
  deleteItemType,
  listItemTypes,
  updateItemType,
} from '../../services/service-planner/item-types.js';
import { createItem, deleteItem, reorderItems, updateItem } from '../../services/service-planner/items.js';
import { protectedProcedure, router } from '../../trpc.js';

const rest = restTag('Service planner');

export const itemsRouter = router({
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{planId}/items',
        'Add an item at the end of a plan (optionally with a song and its key)',
        { status: 201 },
      ),
    )
    .input(createItemSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => createItem(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/items/{id}', 'Change an item (partial; song: null removes its song)'))
    .input(updateItemSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => updateItem(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/items/{id}', 'Delete an item'))
    .input(itemIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteItem(ctx.db, ctx.tenantId, input)),
  reorder: protectedProcedure
    .meta(
      rest.put(
        '/api/service-planner/plans/{planId}/items/order',
        "Reorder a plan's items: itemIds lists every item once, in the new order",
      ),
    )
    .input(reorderItemsSchema)
    .output(z.array(itemSchema))
    .mutation(({ ctx, input }) => reorderItems(ctx.db, ctx.tenantId, input)),
});

export const itemTypesRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/service-planner/item-types', 'Item types (the defaults are added on first use)'))
    .output(z.array(itemTypeSchema))
    .query(({ ctx }) => listItemTypes(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta(rest.post('/api/service-planner/item-types', 'Create an item type', { status: 201 }))
    .input(itemTypeFieldsSchema)
    .output(itemTypeSchema)
    .mutation(({ ctx, input }) => createItemType(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/item-types/{id}', 'Change an item type (partial)'))
    .input(updateItemTypeSchema)
    .output(itemTypeSchema)
    .mutation(({ ctx, input }) => updateItemType(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/item-types/{id}', 'Delete an item type (its items keep their place)'))
    .input(itemTypeIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteItemType(ctx.db, ctx.tenantId, input)),
});
