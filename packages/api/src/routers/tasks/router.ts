import { listTasksSchema, taskOutputSchema, taskPageSchema, updateTaskSchema } from '../../schemas/journeys.js';
import { listTasks, updateTask } from '../../services/journeys/tasks.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Tasks');

export const tasksRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/tasks', "The church's follow-up tasks, newest first"))
    .input(listTasksSchema)
    .output(taskPageSchema)
    .query(({ ctx, input }) => listTasks(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.patch('/api/tasks/{id}', 'Mark a task done (or open again) and/or give it to someone else', {
        errors: [404],
      }),
    )
    .input(updateTaskSchema)
    .output(taskOutputSchema)
    .mutation(({ ctx, input }) => updateTask(ctx.db, ctx.tenantId, input, ctx.services.jobs)),
});
